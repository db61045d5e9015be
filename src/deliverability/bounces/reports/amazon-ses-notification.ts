import { DeliveryReport } from '../delivery-report';
import { classify } from './classify';
import { addressIn } from './recipient';
import { parseStatus } from './status-code';

/*
 * Amazon SES bounce and complaint notifications, as its developer guide documents them ("Amazon
 * SES notification contents"): a JSON object mailed as the whole text of the message when an SNS
 * topic has an email subscription (email-json wraps it in the SNS envelope's Message string).
 */
interface SesNotification {
  notificationType?: string;
  eventType?: string;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: SesRecipient[] };
  complaint?: { complainedRecipients?: SesRecipient[]; complaintFeedbackType?: string };
  delivery?: { recipients?: string[] };
  mail?: { messageId?: string; commonHeaders?: { messageId?: string } };
}
interface SesRecipient {
  emailAddress?: string;
  action?: string;
  status?: string;
  diagnosticCode?: string;
}

// Feedback types that are no complaint (RFC 6430 not-spam, RFC 6591 auth-failure, virus).
const NOT_COMPLAINTS = new Set(['not-spam', 'auth-failure', 'virus', 'other']);

/** The reports of an SES notification in the text, or none when the text is not one. */
export function readAmazonSesNotification(text: string): DeliveryReport[] {
  // SNS signs its emails off below a "--" line (unsubscribe link): the JSON comes before it.
  const notification = parse(text.split(/\r?\n--[ \t]*\r?\n/, 1)[0].trim());
  if (notification === undefined) return [];
  const type = (notification.notificationType ?? notification.eventType ?? '').toLowerCase();
  const originalMessageId = notification.mail?.commonHeaders?.messageId;
  const common = originalMessageId === undefined ? {} : { originalMessageId };
  if (type === 'bounce') {
    const permanent = notification.bounce?.bounceType === 'Permanent';
    return listOf(notification.bounce?.bouncedRecipients).map((recipient) => {
      const diagnostic =
        String(recipient.diagnosticCode ?? '').replace(/^smtp;\s*/i, '') ||
        `Amazon SES ${notification.bounce?.bounceType} bounce (${notification.bounce?.bounceSubType})`;
      // Transient: SES itself gave up retrying; Undetermined: SES could not tell. Both bounce the message only.
      const kind = permanent
        ? (classify({ action: 'failed', status: String(recipient.status ?? ''), diagnostic }) ?? 'soft')
        : 'soft';
      const status = parseStatus(String(recipient.status ?? diagnostic))?.text;
      return {
        kind,
        ...withRecipient(recipient.emailAddress),
        ...(status !== undefined && { status }),
        diagnostic,
        ...common,
      };
    });
  }
  if (type === 'complaint') {
    const feedbackType = String(notification.complaint?.complaintFeedbackType ?? 'abuse').toLowerCase();
    const kind = NOT_COMPLAINTS.has(feedbackType) ? 'other' : 'complaint';
    return listOf(notification.complaint?.complainedRecipients).map((recipient) => ({
      kind,
      ...withRecipient(recipient.emailAddress),
      feedbackType,
      diagnostic: `Amazon SES complaint: ${feedbackType}`,
      ...common,
    }));
  }
  if (type === 'delivery') {
    return listOf(notification.delivery?.recipients).map((recipient) => ({
      kind: 'other',
      ...withRecipient(recipient),
      diagnostic: 'Amazon SES delivery',
      ...common,
    }));
  }
  return [];
}

function parse(text: string): SesNotification | undefined {
  if (!text.startsWith('{')) return undefined;
  // Sendmail splits lines longer than its limit with "!" and a continuation line (its L= option).
  const value = parseJson(text) ?? parseJson(text.replace(/!\r?\n /g, ''));
  if (typeof value !== 'object' || value === null) return undefined;
  const envelope = value as { Type?: unknown; Message?: unknown };
  if (envelope.Type === 'Notification' && typeof envelope.Message === 'string') return parse(envelope.Message.trim());
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// The JSON is someone else's: a field that should be a list may be anything.
const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

function withRecipient(address: unknown): { recipient?: string } {
  const recipient = typeof address === 'string' ? addressIn(address) : undefined;
  return recipient === undefined ? {} : { recipient };
}
