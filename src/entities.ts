import type { Entities } from './platform/database/data-source-options';
import { ApiKeyRevocationsEntity } from './auth/api-keys/entities/api-key-revocations.entity';
import { ApiKeyEntity } from './auth/api-keys/entities/api-key.entity';
import { AttachmentEntity } from './messages/attachments/entities/attachment.entity';
import { AppliedReportEntity } from './deliverability/bounces/entities/applied-report.entity';
import { SendingDomainEntity } from './deliverability/domains/entities/sending-domain.entity';
import { InboundAttachmentEntity } from './inbound/entities/inbound-attachment.entity';
import { InboundMailEntity } from './inbound/entities/inbound-mail.entity';
import { IdempotencyKeyEntity } from './sender/idempotency/entities/idempotency-key.entity';
import { MessageCountChangeEntity } from './messages/entities/message-count-change.entity';
import { MessageCountEntity } from './messages/entities/message-count.entity';
import { MessageMimeEntity } from './messages/entities/message-mime.entity';
import { MessageAttachmentEntity } from './messages/entities/message-attachment.entity';
import { MessageRecipientEntity } from './messages/entities/message-recipient.entity';
import { MessageStatusEventEntity } from './messages/entities/message-status-event.entity';
import { MessageEntity } from './messages/entities/message.entity';
import { SenderEntity } from './messages/entities/sender.entity';
import { RateLimitCounterEntity } from './auth/rate-limit/entities/rate-limit-counter.entity';
import { SuppressionEntity } from './deliverability/suppressions/entities/suppression.entity';
import { WebhookAttemptEntity } from './webhooks/entities/webhook-attempt.entity';
import { WebhookEndpointEntity } from './webhooks/entities/webhook-endpoint.entity';
import { WebhookEventEntity } from './webhooks/entities/webhook-event.entity';

/** Every table of the schema, with every index TypeORM can express (test/schema-drift.e2e-spec.ts holds them to the migrations). */
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
  MessageMimeEntity,
  InboundMailEntity,
  InboundAttachmentEntity,
];
