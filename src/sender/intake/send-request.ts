import type { MessagePriority, MessageStatus } from '../../messages';

/**
 * A request to send one email, as every way in gives it (the REST API's body, a batch's entries, a
 * message submitted over SMTP), already validated field by field as a SendMessageDto, with the
 * configured rules (MAX_RECIPIENTS, a webhook URL that could ever be delivered): the intake checks none again.
 */
export interface SendRequest {
  subject: string;
  /** The HTML body; absent: a text-only message, and `text` is required. */
  html?: string | null;
  /** Addresses or mailboxes (`Ada <ada@example.com>`), as `sender`, `cc`, `bcc` and `replyTo`. */
  to: string[];
  sender: string;
  cc?: string[] | null;
  bcc?: string[] | null;
  replyTo?: string[] | null;
  /** The plain-text part; absent: derived from html at delivery (html is then required). */
  text?: string | null;
  /** Custom headers, checked against the reserved names. */
  headers?: Record<string, string> | null;
  /** Stored attachments (POST /attachments), by id. */
  attachmentIds?: string[];
  /** Inline attachments, base64; one with a contentId goes inline, for the HTML's `cid:` references. */
  attachments?: { fileName: string; content: string; contentType?: string | null; contentId?: string | null }[];
  bulkSendingId?: string;
  customPayload?: Record<string, string>;
  contactId?: string;
  priority?: MessagePriority;
  webhook?: { url: string; status?: MessageStatus[] };
  /** ISO 8601 with an offset, at most 30 days ahead; a past moment means now. */
  scheduledAt?: string;
  /**
   * SMTP submission: the message as received, delivered as it is, and the decoded bytes of its
   * attachments (MAX_ATTACHMENT_BYTES counts them). The fields above are read from it.
   */
  mime?: { raw: Buffer; attachmentBytes: number };
}
