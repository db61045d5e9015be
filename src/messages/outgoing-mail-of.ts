import type { OutgoingMail } from './mime/outgoing-mail';
import type { ClaimedFields } from './message-fields';

/** A stored message with what composing it takes besides its fields. */
export interface ComposableMessage extends ClaimedFields {
  id: string;
  /** In delivery order, with their bytes. */
  attachments: OutgoingMail['attachments'];
  /** A message submitted over SMTP: its MIME as received (docs/api.md#smtp-submission); null: composed from the fields. */
  mime: Buffer | null;
}

/**
 * A stored message as the composer takes it: one mapping for the delivery and for reading the
 * message back (docs/api.md#reading-back), so that the `.eml` is the delivered message.
 */
export function outgoingMailOf(message: ComposableMessage): OutgoingMail {
  return {
    id: message.id,
    from: message.sender,
    to: message.recipients,
    cc: message.cc ?? [],
    bcc: message.bcc ?? [],
    replyTo: message.replyTo ?? [],
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers ?? {},
    attachments: message.attachments,
    ...(message.mime && { mime: message.mime }),
  };
}
