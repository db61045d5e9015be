import { DataSource, DataSourceOptions } from 'typeorm';
import { ApiKeyRevocationsEntity } from '../auth/api-keys/entities/api-key-revocations.entity';
import { ApiKeyEntity } from '../auth/api-keys/entities/api-key.entity';
import { AttachmentEntity } from '../attachments/entities/attachment.entity';
import { AppliedReportEntity } from '../bounces/entities/applied-report.entity';
import { SendingDomainEntity } from '../domains/entities/sending-domain.entity';
import { IdempotencyKeyEntity } from '../idempotency/entities/idempotency-key.entity';
import { MessageCountChangeEntity } from '../messages/entities/message-count-change.entity';
import { MessageCountEntity } from '../messages/entities/message-count.entity';
import { MessageMimeEntity } from '../messages/entities/message-mime.entity';
import { MessageAttachmentEntity } from '../messages/entities/message-attachment.entity';
import { MessageRecipientEntity } from '../messages/entities/message-recipient.entity';
import { MessageStatusEventEntity } from '../messages/entities/message-status-event.entity';
import { MessageEntity } from '../messages/entities/message.entity';
import { SenderEntity } from '../messages/entities/sender.entity';
import { RateLimitCounterEntity } from '../rate-limit/entities/rate-limit-counter.entity';
import { SuppressionEntity } from '../suppressions/entities/suppression.entity';
import { WebhookAttemptEntity } from '../webhooks/entities/webhook-attempt.entity';
import { WebhookEventEntity } from '../webhooks/entities/webhook-event.entity';
import { InitialSchema1763740800000 } from './migrations/1763740800000-initial-schema';
import { DeliveryAttempts1763827200000 } from './migrations/1763827200000-delivery-attempts';
import { WebhookEvents1763913600000 } from './migrations/1763913600000-webhook-events';
import { StoredAttachments1764000000000 } from './migrations/1764000000000-stored-attachments';
import { IdempotencyKeys1764000001000 } from './migrations/1764000001000-idempotency-keys';
import { RateLimitCounters1764000002000 } from './migrations/1764000002000-rate-limit-counters';
import { MessageCounts1764086400000 } from './migrations/1764086400000-message-counts';
import { MailboxFields1764172800000 } from './migrations/1764172800000-mailbox-fields';
import { ScheduledSends1764172801000 } from './migrations/1764172801000-scheduled-sends';
import { Suppressions1764259200000 } from './migrations/1764259200000-suppressions';
import { SendingDomains1764345600000 } from './migrations/1764345600000-sending-domains';
import { BounceLoop1764345601000 } from './migrations/1764345601000-bounce-loop';
import { ApiKeys1764432000000 } from './migrations/1764432000000-api-keys';
import { SubmittedMime1764432001000 } from './migrations/1764432001000-submitted-mime';
import { MessageRetention1764518400000 } from './migrations/1764518400000-message-retention';
import { ApiKeyPrefix1764604800000 } from './migrations/1764604800000-api-key-prefix';

/** Every table of the schema, with every index TypeORM can express (test/schema-drift.e2e-spec.ts holds them to the migrations). */
export const ENTITIES = [
  SenderEntity,
  MessageEntity,
  MessageRecipientEntity,
  MessageStatusEventEntity,
  MessageAttachmentEntity,
  AttachmentEntity,
  WebhookEventEntity,
  WebhookAttemptEntity,
  IdempotencyKeyEntity,
  RateLimitCounterEntity,
  MessageCountEntity,
  MessageCountChangeEntity,
  SuppressionEntity,
  AppliedReportEntity,
  SendingDomainEntity,
  ApiKeyEntity,
  ApiKeyRevocationsEntity,
  MessageMimeEntity,
];

/** Listed here rather than globbed, so that ts-jest, ts-node and the build all find the same set. */
export const MIGRATIONS = [
  InitialSchema1763740800000,
  DeliveryAttempts1763827200000,
  WebhookEvents1763913600000,
  StoredAttachments1764000000000,
  IdempotencyKeys1764000001000,
  RateLimitCounters1764000002000,
  MessageCounts1764086400000,
  MailboxFields1764172800000,
  ScheduledSends1764172801000,
  Suppressions1764259200000,
  SendingDomains1764345600000,
  BounceLoop1764345601000,
  ApiKeys1764432000000,
  SubmittedMime1764432001000,
  MessageRetention1764518400000,
  ApiKeyPrefix1764604800000,
];

const CONNECT_TIMEOUT_MS = 10_000;

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    applicationName: 'mailroom',
    // A healthy server connects in milliseconds; a host that accepts and never answers must not
    // hold requests forever (they get 503, see database-unavailable.ts).
    extra: { max: 20, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
  };
}

// An arbitrary constant: every Mailroom process agrees on it, so only one migrates at a time.
const MIGRATION_LOCK_KEY = 0x6d61696c;

/** Runs pending migrations under an advisory lock, so processes starting together do not race. */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<void> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}
