import { DeliveryReport } from '../delivery-report';
import { fieldGroups, Fields, fieldsOf } from '../../../platform/mail/header-fields';
import { addressesIn, addressIn, recipientOf } from './recipient';

export const FEEDBACK_REPORT_TYPE = 'message/feedback-report';

/**
 * Feedback types that mean the recipient (or their provider for them) wants no more of this
 * mail: `abuse` (RFC 5965), `fraud` (RFC 5965: taken for phishing, which the recipient reports
 * just as spam), and `opt-out` and `opt-out-list` (draft-shafranovich-feedback-report, still sent
 * by some providers). `virus`, `not-spam` (RFC 6430), `auth-failure` (RFC 6591) and `other` say
 * nothing of the kind. The complaint metrics count by these too.
 */
export const COMPLAINT_FEEDBACK_TYPES: ReadonlySet<string> = new Set(['abuse', 'fraud', 'opt-out', 'opt-out-list']);

/**
 * One report per recipient of an RFC 5965 feedback report: Original-Rcpt-To (repeatable), else
 * the To of the returned message (§2 (c)), else one report naming no recipient.
 */
export function readFeedbackReport(body: string, original: Fields | undefined): DeliveryReport[] {
  return readFeedbackFields(fieldsOf(body), original);
}

function readFeedbackFields(fields: Fields, original: Fields | undefined): DeliveryReport[] {
  const feedbackType =
    fields
      .first('feedback-type')
      ?.split(/[\s;(]/, 1)[0]
      .toLowerCase() ?? 'unknown';
  const kind = COMPLAINT_FEEDBACK_TYPES.has(feedbackType) ? 'complaint' : 'other';
  const reported = fields.first('user-agent') ? ` (${fields.first('user-agent')})` : '';
  const envelopeSender = addressIn(fields.first('original-mail-from')?.trim() ?? '');
  const base: DeliveryReport = {
    kind,
    feedbackType,
    diagnostic: `feedback report: ${feedbackType}${reported}`,
    ...(envelopeSender && { originalEnvelopeSender: envelopeSender }),
  };
  const recipients = [...new Set(recipientsOf(fields, original))];
  return recipients.length === 0 ? [base] : recipients.map((recipient) => ({ ...base, recipient }));
}

/**
 * Feedback report fields pasted into the text rather than sent as their own part (a report
 * forwarded by hand, a provider or gateway that flattens MIME): a block of fields with
 * Feedback-Type beside another field RFC 5965 §3.1 requires (User-Agent, Version), read as a
 * feedback report part. A text that only mentions "Feedback-Type:" has no such block.
 */
export function readFeedbackReportInText(text: string, original: Fields | undefined): DeliveryReport[] {
  const block = fieldGroups(text).find(
    (fields) =>
      fields.first('feedback-type') !== undefined &&
      (fields.first('user-agent') ?? fields.first('version')) !== undefined,
  );
  return block === undefined ? [] : readFeedbackFields(block, original);
}

function recipientsOf(fields: Fields, original: Fields | undefined): string[] {
  const named = fields.all('original-rcpt-to').map(recipientOf);
  if (named.some((address) => address !== undefined)) return named.filter((address) => address !== undefined);
  return (original?.all('to') ?? []).flatMap(addressesIn);
}

/*
 * Microsoft's Junk Mail Reporting Program can send, instead of RFC 5965, the reported message
 * alone as message/rfc822, the recipient who marked it junk named in X-HmXmrOriginalRecipient.
 */
export function readJunkMailReport(original: Fields | undefined): DeliveryReport[] {
  const recipient = recipientOf(original?.first('x-hmxmroriginalrecipient'));
  if (recipient === undefined) return [];
  return [{ kind: 'complaint', recipient, feedbackType: 'abuse', diagnostic: 'Microsoft JMRP junk report' }];
}
