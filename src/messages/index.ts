// The Messages context's public face: the message, its lifecycle, recipients, read-back and composing.
// What other contexts may import (.dependency-cruiser.cjs); inside messages/, import files directly.
export { senderIdFor } from './addresses';
export { AttachmentsModule } from './attachments/attachments.module';
export { AttachmentsRepository } from './attachments/attachments.repository';
export { AttachmentEntity } from './attachments/entities/attachment.entity';
export { ListMessagesQuery } from './dto/list-messages.query';
export { MessagePageResponse } from './dto/message-page.response';
export { MessageResponse, RecipientFateResponse } from './dto/message.response';
export { MessageAttachmentEntity } from './entities/message-attachment.entity';
export { MessageCountChangeEntity } from './entities/message-count-change.entity';
export { MessageCountEntity } from './entities/message-count.entity';
export { MessageMimeEntity } from './entities/message-mime.entity';
export { MessageRecipientEntity } from './entities/message-recipient.entity';
export { MessageStatusEventEntity } from './entities/message-status-event.entity';
export { MessageEntity } from './entities/message.entity';
export { SenderEntity } from './entities/sender.entity';
// Ports: what messages needs of the webhooks context, which provides them (messages may not import it).
export { EventFanOut } from './lifecycle/event-fan-out';
export { MessageEventStore } from './message-event-store';
export { MessageLifecycle } from './lifecycle/message-lifecycle.repository';
export type { MovedMessage } from './lifecycle/message-lifecycle.repository';
export { MessageLifecycleModule } from './lifecycle/message-lifecycle.module';
export { UNFINISHED_STATUSES } from './lifecycle/status-groups';
export { publishStatusGroups } from './lifecycle/status-groups.openapi';
export type { TargetOf } from './lifecycle/transitions';
export { CLAIMED_FIELD_COLUMNS } from './message-fields';
export type { ClaimedFields } from './message-fields';
export { MESSAGE_PRIORITIES, MESSAGE_STATUSES } from './message-status';
export type { MessagePriority, MessageStatus } from './message-status';
export { historyAsOf, mapMessage } from './message.mapper';
export { MessagesModule } from './messages.module';
export { MessagesRepository } from './messages.repository';
export type { NewMessage } from './messages.repository';
export { composeMessage } from './mime/compose';
export { envelopeOf, toMimeMessage } from './mime/mime';
export type { OutgoingMail } from './mime/outgoing-mail';
export { outgoingMailOf } from './outgoing-mail-of';
export type { ComposableMessage } from './outgoing-mail-of';
export { initialFates, RECIPIENT_EVENT_STATUSES } from './recipient-fates';
export type { FateChange, RecipientFate } from './recipient-fates';
export { RecipientTokens } from './recipient-token';
export type { RecipientRef } from './recipient-token';
export { deliveryOrder, distinctRecipients, recipientKey, recipientLimitMessage } from './recipients';
export { TokenRecipients } from './token-recipients.repository';
export {
  CLAIMED_CONTENT_COLUMNS,
  DeliverableContentRepository,
  recipientRowsSql,
} from './deliverable-content.repository';
