import { DeliveryReport } from '../delivery-report';
import { classify, Failure, gaveUp } from './classify';
import { headerFieldsOf } from '../../../platform/mail/header-fields';
import { splitAtQuotedOriginal } from './quoted-original';
import { addressesIn, addressIn } from './recipient';
import { ReportMail } from './report-mail';
import { failureStatusIn, replyClassOf } from './status-code';

/*
 * The bounce says the server has given up: qmail "This is a permanent error; I've given up" and
 * "I'm not going to try again", Exim "This is a permanent error", Sendmail "permanent fatal
 * errors", Gmail "failed permanently", MailFoundry "No further delivery attempts will be made".
 */
const GAVE_UP =
  /permanent(?:ly)? (?:error|failure|fatal)|failed permanently|i'?ve given up|giving up|not going to try again|no further delivery attempts/i;
/*
 * …or that delivery is still being tried: Exim "has not yet been delivered … Delivery attempts
 * will continue" and its subject "Warning: message … delayed", Postfix "Delayed Mail (still being
 * retried)" and "It will be retried until…", Sendmail "Will keep trying until message is 5 days
 * old", Gmail "Delivery Status Notification (Delay)".
 */
const STILL_TRYING =
  /not yet been delivered|delivery attempts will continue|still being retried|will (?:keep|continue) trying|will be retried|still trying|notification \(delay\)|delayed mail|message \S+ delayed|message delayed/i;
/*
 * …or, in the usual opening lines and subjects, that it failed: Postfix "Undelivered Mail
 * Returned to Sender", qmail "failure notice", Exim "Mail delivery failed", Exchange
 * "Undeliverable:" and "did not reach the following recipient(s)", OpenSMTPD "An error has
 * occurred while attempting to deliver", SendGrid "was not able to be delivered". A delay warning
 * may say "could not be delivered" too, so these count only where nothing says it is still tried.
 */
const FAILED =
  /did not reach the following|error has occurred while attempting to deliver|(?:could ?not|couldn'?t|can ?not|unable to|not able to) (?:be )?deliver|mail failed|was not delivered|delivery (?:has )?failed|undeliver(?:able|ed)|failure notice|returned mail|mail delivery failed|delivery status notification \(failure\)|non-?delivery/i;

// The words of a text, split where no address can go on: a candidate is a word holding an @
// (isEmailAddress decides). Matching whole words keeps the scan linear on any input.
const WORD = /[^\s<>()[\]"',;:]+/g;
// What may come before an address that opens a line, as every format lists the failed recipients
// (`<a@b>:`, `  a@b`, PMDF's `Recipient address: a@b`). Not `To:`: that is a quoted header.
const LINE_START = /^[ \t]*(?:<|(?:recipient|address)[^@\n]{0,20}[:\s]\s*<?)?$/i;
// How far back the start of the line is looked for.
const LINE_START_REACH = 40;
// Addresses after MAIL FROM are the sender's (Exim "SMTP error … after MAIL FROM:<…>"), and
// those in header lines left in the text name the sender or the message, never the recipient.
const NOT_A_RECIPIENT_BEFORE =
  /mail from:?\s*$|^\s*(?:message-id|in-reply-to|references|from|sender|return-path|reply-to|envelope-from)\s*:/i;
// Names that deliver reports rather than receive mail.
const SYSTEM_LOCAL_PARTS = new Set(['mailer-daemon', 'postmaster', 'mail-daemon', 'mailerdaemon', 'abuse']);
/** The most recipients read from one bounce text, and the most addresses looked at to find them. */
const MAX_RECIPIENTS = 100;
const MAX_MENTIONS = 1000;
// RFC 5321 §4.5.3.1: a path is at most 256 octets; anything much longer is no address.
const MAX_ADDRESS_LENGTH = 320;

/**
 * The non-standard bounces (qmail, classic Exim, Sendmail without DSN, Yahoo, old Gmail and
 * Exchange…): free text naming the failed recipients, each followed by the remote server's
 * words. One report per recipient named at the start of a line, classified from its own
 * paragraph; else one report, about the first address the text names, or about none.
 */
export function readPlainTextBounce(mail: ReportMail): DeliveryReport[] {
  const { own: text, quoted } = splitAtQuotedOriginal(mail.text);
  const subject = mail.header('subject') ?? '';
  const permanence = permanenceOf(`${subject}\n${text}`);
  if (permanence === undefined && failureStatusIn(text) === undefined && replyClassOf(text) === undefined) return [];

  const own = ownAddresses(mail, quoted);
  const mentions = mentionsIn(text).filter((mention) => !own.has(mention.address));
  const listed = mentions.filter((mention) => mention.atLineStart);
  // Addresses only met inside sentences are less sure: the first ("delivery to a@b failed") is
  // taken, never the others a text may name (a helpdesk, a forwarding address).
  const recipients = listed.length > 0 ? firstOfEach(listed).slice(0, MAX_RECIPIENTS) : mentions.slice(0, 1);
  if (recipients.length <= 1)
    return reportOn(recipients[0]?.address, text, text.slice(recipients[0]?.index ?? 0), {
      permanence,
      context: text,
    });
  // Several recipients: each is judged by the words between its line and the next one's, and
  // the opening words that concern them all (but address words count only in its own paragraph).
  const opening = text.slice(0, recipients[0].index);
  return recipients.flatMap((mention, index) => {
    const paragraph = text.slice(mention.index, recipients[index + 1]?.index ?? text.length);
    return reportOn(mention.address, paragraph, paragraph, {
      permanence,
      context: `${opening}\n${paragraph}`,
      ownText: paragraph,
    });
  });
}

/** One report: classified from `words`, showing what follows the recipient's name (`shown`). */
function reportOn(
  recipient: string | undefined,
  words: string,
  shown: string,
  about: Pick<Failure, 'permanence' | 'context' | 'ownText'>,
): DeliveryReport[] {
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  const failure: Failure = { diagnostic: flat(words), ...about };
  const kind = classify(failure);
  if (kind === undefined) return [];
  const status = failureStatusIn(shown)?.text ?? failureStatusIn(words)?.text;
  return [
    {
      kind,
      ...(recipient !== undefined && { recipient }),
      ...(status !== undefined && { status }),
      ...(kind === 'soft' && gaveUp(failure) && { gaveUp: true as const }),
      diagnostic: flat(shown) || flat(words),
    },
  ];
}

function permanenceOf(words: string): Failure['permanence'] {
  if (GAVE_UP.test(words)) return 'permanent';
  if (STILL_TRYING.test(words)) return 'temporary';
  return FAILED.test(words) ? 'permanent' : undefined;
}

interface Mention {
  address: string;
  index: number;
  atLineStart: boolean;
}

function mentionsIn(text: string): Mention[] {
  const mentions: Mention[] = [];
  for (const match of text.matchAll(WORD)) {
    if (match[0].length > MAX_ADDRESS_LENGTH || !match[0].includes('@')) continue;
    const address = addressIn(match[0].replace(/\.+$/, ''));
    if (address === undefined || SYSTEM_LOCAL_PARTS.has(address.split('@')[0])) continue;
    // The text before the address on its line, looked for no further back than a line start can be.
    const window = text.slice(Math.max(0, match.index - LINE_START_REACH), match.index);
    const newline = window.lastIndexOf('\n');
    const before = newline >= 0 ? window.slice(newline + 1) : window;
    const lineOpensHere = newline >= 0 || match.index <= LINE_START_REACH;
    if (NOT_A_RECIPIENT_BEFORE.test(before)) continue;
    const atLineStart = lineOpensHere && LINE_START.test(before);
    // A listed recipient's paragraph starts with its line (`<a@b>:` keeps its bracket).
    mentions.push({ address, index: atLineStart ? match.index - before.length : match.index, atLineStart });
    if (mentions.length >= MAX_MENTIONS) break;
  }
  return mentions;
}

function firstOfEach(mentions: Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((mention) => !seen.has(mention.address) && seen.add(mention.address));
}

/** The report's own addresses and the returned message's sender: never the failed recipient. */
function ownAddresses(mail: ReportMail, quoted: string): Set<string> {
  const quotedHeaders = quoted === '' ? undefined : headerFieldsOf(quoted);
  const lists = [
    ...['to', 'cc', 'from', 'return-path', 'reply-to'].map((name) => mail.header(name) ?? ''),
    ...['from', 'sender', 'return-path'].flatMap((name) => [
      ...(mail.original?.all(name) ?? []),
      ...(quotedHeaders?.all(name) ?? []),
    ]),
  ];
  return new Set(lists.flatMap(addressesIn));
}
