import { DataSource, DataSourceOptions } from 'typeorm';
import { MigrationExecutor } from 'typeorm/migration/MigrationExecutor';
import type { DatabasePoolMode } from '../config/app-config';
import type { MigrationContext } from './migration-context';
import { poolModeOf } from './pool-mode';
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
import { RecipientFates1764691200000 } from './migrations/1764691200000-recipient-fates';
import { SuppressionScope1764691201000 } from './migrations/1764691201000-suppression-scope';
import { TextOnlyAndInlineImages1764691202000 } from './migrations/1764691202000-text-only-and-inline-images';
import { WebhookEndpoints1764777600000 } from './migrations/1764777600000-webhook-endpoints';
import { InboundMail1764950400000 } from './migrations/1764950400000-inbound-mail';
import { AccountEventRetention1765036800000 } from './migrations/1765036800000-account-event-retention';
import { NextAttemptAt1765036801000 } from './migrations/1765036801000-next-attempt-at';
import { ReceivingFollowsVerification1765123200000 } from './migrations/1765123200000-receiving-follows-verification';
import { SealedEndpointSecrets1765209600000 } from './migrations/1765209600000-sealed-endpoint-secrets';
import { WebhookResponseBodies1765209601000 } from './migrations/1765209601000-webhook-response-bodies';
import { MessageSearch1765296000000 } from './migrations/1765296000000-message-search';
import { RecipientCounts1765382400000 } from './migrations/1765382400000-recipient-counts';
import { SubmittedReadings1765468800000 } from './migrations/1765468800000-submitted-readings';
import { AuditLog1765555200000 } from './migrations/1765555200000-audit-log';
import { MembersAndSessions1765641600000 } from './migrations/1765641600000-members-and-sessions';
import { PasswordResets1765728000000 } from './migrations/1765728000000-password-resets';
import { DeliverySites1765814400000 } from './migrations/1765814400000-delivery-sites';
import { RecentWrites1765900800000 } from './migrations/1765900800000-recent-writes';

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
  RecipientFates1764691200000,
  SuppressionScope1764691201000,
  TextOnlyAndInlineImages1764691202000,
  WebhookEndpoints1764777600000,
  InboundMail1764950400000,
  AccountEventRetention1765036800000,
  NextAttemptAt1765036801000,
  ReceivingFollowsVerification1765123200000,
  SealedEndpointSecrets1765209600000,
  WebhookResponseBodies1765209601000,
  MessageSearch1765296000000,
  RecipientCounts1765382400000,
  SubmittedReadings1765468800000,
  AuditLog1765555200000,
  MembersAndSessions1765641600000,
  PasswordResets1765728000000,
  DeliverySites1765814400000,
  RecentWrites1765900800000,
];

const CONNECT_TIMEOUT_MS = 10_000;
/** DATABASE_POOL_SIZE's default (docs/configuration.md). */
const DEFAULT_POOL_SIZE = 20;

export type Entities = NonNullable<DataSourceOptions['entities']>;

/**
 * `entities` is the schema's list, which the app's composition root holds (src/entities.ts):
 * the entities live in the contexts, which platform/ does not import.
 */
export function dataSourceOptions(url: string, entities: Entities, poolSize = DEFAULT_POOL_SIZE): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    applicationName: 'mailroom',
    // A healthy server connects in milliseconds; a host that accepts and never answers must not
    // hold requests forever (they get 503, see database-unavailable.ts).
    extra: { max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
  };
}

// An arbitrary constant: every Mailroom process agrees on it, so only one migrates at a time.
const MIGRATION_LOCK_KEY = 0x6d61696c;

/**
 * Runs pending migrations under an advisory lock, so processes starting together do not race.
 * `context` reaches each migration on its query runner (see migration-context.ts).
 *
 * In session mode the lock is a session lock held on a connection of its own across all of them,
 * as before. Behind a pooler in transaction mode a session lock is taken and released on whatever
 * server connection each statement gets: two processes both migrated a fresh database, and locks
 * were left on idle pooled connections. There each migration's transaction takes a transaction
 * lock first and checks again what is pending under it, so the lock ends with its transaction.
 */
export async function runMigrationsExclusively(
  dataSource: DataSource,
  context: MigrationContext = {},
  mode: DatabasePoolMode = poolModeOf(dataSource),
): Promise<void> {
  if (mode === 'transaction') return runMigrationsOneTransactionAtATime(dataSource, context);
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  const runner = dataSource.createQueryRunner();
  runner.data = context;
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    // DataSource.runMigrations as it runs, with a query runner of ours that carries the context.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await runner.release();
  }
}

/**
 * One transaction per pending migration: lock, read what is still pending, run the first of it,
 * record it, commit. A process that waited on the lock then finds it done and runs the next, or
 * nothing.
 */
async function runMigrationsOneTransactionAtATime(dataSource: DataSource, context: MigrationContext): Promise<void> {
  for (;;) {
    const runner = dataSource.createQueryRunner();
    runner.data = context;
    try {
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const executor = new MigrationExecutor(dataSource, runner);
      const pending = await executor.getPendingMigrations();
      if (pending.length === 0) {
        await runner.commitTransaction();
        return;
      }
      // Creates TypeORM's migrations table first if need be, under the lock as the rest.
      await executor.executeMigration(pending[0]);
      await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
