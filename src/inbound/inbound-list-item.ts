import type { InboundListItemResponse } from './dto/inbound.response';
import type { InboundMailEntity } from './entities/inbound-mail.entity';
import type { InboundAttachmentEntity } from './entities/inbound-attachment.entity';

/** A received mail as lists show it (docs/inbound.md), and as inbound.received carries it (docs/delivery-and-deliverability.md#webhooks). */
export function listItem(
  row: InboundMailEntity,
  attachments: Pick<InboundAttachmentEntity, 'position' | 'fileName' | 'contentType' | 'size'>[],
): InboundListItemResponse {
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    from: row.fromMailbox,
    to: row.toMailboxes,
    cc: row.ccMailboxes,
    subject: row.subject,
    messageId: row.messageId,
    envelope: { mailFrom: row.mailFrom, rcptTo: row.rcptTo },
    attachments: attachments.map((a) => ({
      index: a.position,
      fileName: a.fileName,
      contentType: a.contentType,
      size: a.size,
    })),
    authentication: { spf: row.spf, dkim: row.dkim, dmarc: row.dmarc },
    replyToMessageId: row.replyToMessageId,
  };
}
