import { DeliveryReport } from '../delivery-report';
import { classify, Failure, gaveUp } from './classify';
import { Fields, fieldGroups } from '../../../platform/mail/header-fields';
import { addressIn, recipientOf } from './recipient';
import { parseStatus } from './status-code';

/** The MIME types of an RFC 3464 delivery status part, and its RFC 6533 UTF-8 variant. */
export const DELIVERY_STATUS_TYPES = ['message/delivery-status', 'message/global-delivery-status'];

/** Action values outside RFC 3464 §2.3.3 that some servers write: SendGrid's `expired` (gave up retrying). */
const ACTION_ALIASES = new Map([['expired', 'failed']]);

/**
 * One report per recipient group of an RFC 3464 delivery status part (§2.3): the recipient from
 * Final-Recipient (else Original-Recipient), classified from Action, Status and Diagnostic-Code.
 * The first group holds the per-message fields and names no recipient.
 */
export function readDeliveryStatus(body: string, humanText: string): DeliveryReport[] {
  return readGroups(fieldGroups(body).flatMap(recipientGroups), humanText);
}

function readGroups(groups: Fields[], humanText: string): DeliveryReport[] {
  return groups.map((group) => {
    const status = parseStatus(group.first('status'))?.text;
    const diagnostic = diagnosticOf(group.first('diagnostic-code')) ?? group.first('status') ?? '';
    const written = group.first('action')?.split(/[\s(]/, 1)[0].toLowerCase();
    const action = written === undefined ? undefined : (ACTION_ALIASES.get(written) ?? written);
    // The human-readable text is this recipient's own only when the report names no other.
    const ownText = groups.length === 1 ? humanText : '';
    const recipient = recipientOf(group.first('final-recipient') ?? group.first('original-recipient'));
    const failure: Failure = {
      action,
      status,
      diagnostic,
      context: humanText,
      ownText,
      ...(repliesNaming(diagnostic, recipient) && { atRcpt: true as const }),
    };
    const kind = classify(failure) ?? 'unrecognized';
    return {
      kind,
      ...(recipient !== undefined && { recipient }),
      ...(status !== undefined && { status }),
      ...(kind === 'soft' && gaveUp(failure) && { gaveUp: true as const }),
      diagnostic: diagnostic || `Action: ${action ?? 'none'}`,
    };
  });
}

// A reply code and the path in angle brackets right after it: `550 <a@b>: User unknown`, `550: <a@b>: …`.
const REPLY_AND_PATH = /^[45]\d\d[\s:-]+<([^\s<>]{1,320})>/;

/*
 * Whether the remote reply echoes the recipient's path right after its code ("550 <a@b>: User
 * unknown"): the form of a reply to RCPT TO, the command that carries that `<path>` (RFC 5321
 * §4.1.1.3), where a server says whether it takes mail for it. A reply to DATA is about the message as a whole (RFC 5321
 * §4.1.1.4): KDDI's filter, for one, answers "550 : User unknown" there, and the same server's
 * "550 <a@b>: User unknown" at RCPT TO. Read only in a DSN, where Final-Recipient says whom the
 * Diagnostic-Code is about. A reply giving an enhanced code first ("550 5.0.0 <a@b>…") is read
 * by its code, and a bare address after the code ("550 a@b... No such user", a filter's notice
 * among them) echoes no path.
 */
function repliesNaming(diagnostic: string, recipient: string | undefined): boolean {
  const match = REPLY_AND_PATH.exec(diagnostic);
  return match !== null && recipient !== undefined && addressIn(match[1]) === recipient;
}

/**
 * Delivery status fields pasted into the text rather than sent as their own part (a bounce
 * forwarded as text, a gateway that flattens MIME): the groups that name a recipient and say
 * what happened to it, read as a delivery-status part.
 */
export function readDeliveryStatusInText(text: string): DeliveryReport[] {
  const named = (group: Fields) =>
    group.first('final-recipient') !== undefined && (group.first('action') ?? group.first('status')) !== undefined;
  const groups = fieldGroups(text).flatMap(recipientGroups).filter(named);
  return groups.length === 0 ? [] : readGroups(groups, text);
}

/**
 * The recipient groups of one blank-line-separated block. Some servers leave out the blank line
 * between recipients; their fields then repeat within one block and are paired by position.
 */
function recipientGroups(block: Fields): Fields[] {
  const recipients = block.all('final-recipient').length || block.all('original-recipient').length;
  if (recipients <= 1) return recipients === 1 ? [block] : [];
  return Array.from({ length: recipients }, (_, index) => {
    const nth = (name: string) => {
      const values = block.all(name);
      return values.length === recipients ? [values[index]] : values;
    };
    return { all: nth, first: (name: string) => nth(name)[0] };
  });
}

/**
 * Diagnostic-Code is `diagnostic-type; text` (RFC 3464 §2.3.6): the text, folded onto one line.
 * Types are short names (`smtp`, `X-Postfix`, `X-Unix`); a semicolon further in belongs to a
 * text written without one.
 */
function diagnosticOf(field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const separator = field.indexOf(';');
  const text = (separator >= 0 && separator < 20 ? field.slice(separator + 1) : field).replace(/\s+/g, ' ').trim();
  return text || undefined;
}
