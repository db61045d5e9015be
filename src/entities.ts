import type { Entities } from './platform/database/data-source-options';
import { ApiKeyRevocationsEntity } from './auth';
import { ApiKeyEntity } from './auth';
import { AuditLogEntryEntity } from './auth';
import { MemberEntity } from './auth';
import { MemberSessionEntity } from './auth';
import { PasswordResetEntity } from './auth';
import { AttachmentEntity } from './messages';
import { AppliedReportEntity } from './deliverability';
import { SendingDomainEntity } from './deliverability';
import { InboundAttachmentEntity } from './inbound';
import { InboundMailEntity } from './inbound';
import { IdempotencyKeyEntity } from './sender';
import { MessageCountChangeEntity } from './messages';
import { MessageCountEntity } from './messages';
import { MessageMimeEntity } from './messages';
import { MessageAttachmentEntity } from './messages';
import { MessageRecipientEntity } from './messages';
import { MessageStatusEventEntity } from './messages';
import { MessageEntity } from './messages';
import { SenderEntity } from './messages';
import { RateLimitCounterEntity } from './auth';
import { SuppressionEntity } from './deliverability';
import { WebhookAttemptEntity } from './webhooks';
import { WebhookEndpointEntity } from './webhooks';
import { WebhookEventEntity } from './webhooks';
import { DeliverySiteEntity } from './delivery';
import { DeliverySiteLeaseEntity } from './delivery';
import { RecentWriteEntity } from './platform/database/replica/entities/recent-write.entity';

/** Every table of the schema, with every index TypeORM can express (test/medium/platform/schema-drift.e2e-spec.ts holds them to the migrations). */
export const ENTITIES: Entities = [
  SenderEntity,
  MessageEntity,
  MessageRecipientEntity,
  MessageStatusEventEntity,
  MessageAttachmentEntity,
  AttachmentEntity,
  WebhookEndpointEntity,
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
  AuditLogEntryEntity,
  MemberEntity,
  MemberSessionEntity,
  PasswordResetEntity,
  MessageMimeEntity,
  InboundMailEntity,
  InboundAttachmentEntity,
  DeliverySiteEntity,
  DeliverySiteLeaseEntity,
  RecentWriteEntity,
];
