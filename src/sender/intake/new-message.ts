import { lookup as contentTypeOf } from 'mime-types';
import { v7 as uuidv7 } from 'uuid';
import { addressOf } from '../../platform/validation/mailbox';
import { parseDateTime } from '../../platform/validation/query-values';
import { addressKey } from '../../platform/mail/addresses';
import { senderIdFor } from '../../messages';
import { distinctRecipients, recipientKey } from '../../messages';
import type { NewMessage } from '../../messages';
import { initialFates } from '../../messages';
import type { SendRequest } from './send-request';

export type MessageAttachment = NewMessage['attachments'][number];

/** The message a request asks for, as the lifecycle stores it. */
export function newMessage(userId: string, request: SendRequest, attachments: MessageAttachment[]): NewMessage {
  // Already distinct when the REST body's validation ran; not every way in has one.
  const { to, cc, bcc } = distinctRecipients({ to: request.to, cc: request.cc ?? [], bcc: request.bcc ?? [] });
  const sender = addressOf(request.sender);
  const sentAt = new Date();
  return {
    // Ordered by time, so consecutive messages land side by side in the primary-key index.
    id: uuidv7(),
    userId,
    senderId: senderIdFor(userId, sender),
    sender: request.sender,
    senderKey: addressKey(sender),
    recipients: to,
    cc: request.cc ? cc : null,
    bcc: request.bcc ? bcc : null,
    replyTo: request.replyTo ?? null,
    // to, cc and bcc: the toEmail filter finds a message by any of them.
    recipientKeys: [...to, ...cc, ...bcc].map(recipientKey),
    text: request.text ?? null,
    headers: request.headers ?? null,
    subject: request.subject,
    html: request.html ?? null,
    priority: request.priority ?? 'normal',
    bulkSendingId: request.bulkSendingId ?? null,
    contactId: request.contactId ?? null,
    customPayload: request.customPayload ?? null,
    webhookUrl: request.webhook?.url ?? null,
    webhookStatuses: request.webhook ? (request.webhook.status ?? []) : null,
    sentAt,
    // Pending; MessageIntake marks those on the owner's suppression list when it stores them.
    recipientFates: initialFates({ to, cc, bcc }, new Map(), sentAt),
    scheduledAt: request.scheduledAt ? parseDateTime(request.scheduledAt)! : null,
    attachments,
    ...(request.mime && { mime: request.mime.raw }),
  };
}

/** The request's inline attachments, decoded (their base64 was checked with the request). */
export function inlineAttachments(request: SendRequest): MessageAttachment[] {
  return (request.attachments ?? []).map((a) => {
    const content = Buffer.from(a.content, 'base64');
    return {
      id: uuidv7(),
      fileName: a.fileName,
      contentType: a.contentType ?? (contentTypeOf(a.fileName) || 'application/octet-stream'),
      size: content.length,
      content,
      contentId: a.contentId ?? null,
      attachmentId: null,
    };
  });
}
