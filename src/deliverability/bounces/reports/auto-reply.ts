import { DeliveryReport } from '../delivery-report';
import { ReportMail } from './report-mail';

/*
 * Marks of an automatic reply. RFC 3834 §5 defines `Auto-Submitted: auto-replied`; before it,
 * autoresponders marked their replies with `X-Autoreply` (Zimbra, qmail's autorespond),
 * `X-Autorespond` (cPanel, vacation scripts) or `Precedence: auto_reply`. Bounces themselves are
 * `auto-generated` (RFC 3834 §5.1), which says nothing here.
 */
const AUTO_REPLY_HEADERS: [name: string, value: RegExp][] = [
  ['auto-submitted', /^auto-replied\b/i],
  ['x-autoreply', /./],
  ['x-autorespond', /./],
  ['precedence', /^auto[_-]reply\b/i],
];

/*
 * The subjects autoresponders give their replies when they set none of those headers: Outlook
 * and Exchange "Automatic reply:", iCloud "Auto reply:", and the common "Out of Office".
 */
const AUTO_REPLY_SUBJECT = /^\s*(?:auto(?:matic)?[ -]?reply|auto[ -]?response|out of (?:the )?office)\b/i;

/*
 * Mail delivery systems sign their bounces as MAILER-DAEMON or postmaster, and some of them
 * (Exim, Google Groups) mark those bounces `auto-replied`: such a mail is never a vacation notice.
 */
const DELIVERY_SYSTEM_NAMES = new Set(['mailer-daemon', 'postmaster', 'mail-daemon', 'mailerdaemon']);

/** An auto-reply (vacation notice and the like, RFC 3834) from the recipient: no bounce, one `other` report. */
export function readAutoReply(mail: ReportMail): DeliveryReport[] {
  const isAutoReply =
    AUTO_REPLY_HEADERS.some(([name, value]) => value.test(mail.header(name) ?? '')) ||
    AUTO_REPLY_SUBJECT.test(mail.header('subject') ?? '');
  const fromDeliverySystem = DELIVERY_SYSTEM_NAMES.has((mail.from ?? '').split('@')[0]);
  if (!isAutoReply || fromDeliverySystem) return [];
  const subject = mail.header('subject');
  // RFC 3834 §3.1.5: an auto-reply names the message it answers in In-Reply-To.
  const originalMessageId = mail.header('in-reply-to');
  return [
    {
      kind: 'other',
      ...(mail.from !== undefined && { recipient: mail.from }),
      diagnostic: `auto-reply${subject ? `: ${subject}` : ''}`,
      ...(originalMessageId !== undefined && { originalMessageId }),
    },
  ];
}
