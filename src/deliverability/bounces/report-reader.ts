import { DeliveryReport } from './delivery-report';
import { readAmazonSesNotification } from './reports/amazon-ses-notification';
import { readAutoReply } from './reports/auto-reply';
import { DELIVERY_STATUS_TYPES, readDeliveryStatus, readDeliveryStatusInText } from './reports/dsn';
import {
  FEEDBACK_REPORT_TYPE,
  readFeedbackReport,
  readFeedbackReportInText,
  readJunkMailReport,
} from './reports/feedback-report';
import { readPlainTextBounce } from './reports/plain-text-bounce';
import { addressIn } from './reports/recipient';
import { parseReportMail, ReportMail } from './reports/report-mail';
import { splitAtQuotedOriginal } from './reports/quoted-original';

/**
 * The largest report read. A bounce quotes the original message, but servers cap what they
 * return (Postfix's bounce_size_limit is 50 000 bytes, Exim's return_size_limit 100 KiB), and
 * the report itself comes first; a longer message is not read (`unrecognized`).
 */
export const MAX_REPORT_BYTES = 1024 * 1024;
/** How much of a diagnostic a report keeps (it lands in the message's history). */
export const MAX_DIAGNOSTIC_LENGTH = 1000;

/**
 * What a message received by the inbound listener says, one report per recipient it is about
 * (at least one). Never throws: what it cannot understand is one `unrecognized` report.
 */
export async function readReports(raw: Buffer): Promise<DeliveryReport[]> {
  if (raw.length > MAX_REPORT_BYTES)
    return [unrecognized(`report of ${raw.length} bytes, over the ${MAX_REPORT_BYTES} read`)];
  let mail: ReportMail;
  try {
    mail = await parseReportMail(raw);
  } catch (error) {
    return [unrecognized(`not a MIME message: ${(error as Error).message}`)];
  }
  try {
    const reports = await throughReturnedReport(readMail(mail), mail);
    return reports.length > 0
      ? reports.map((report) => finish(report, mail))
      : [unrecognized('no delivery status, feedback report or bounce text found')];
  } catch (error) {
    return [unrecognized(`report could not be read: ${(error as Error).message}`)];
  }
}

/**
 * The first reader that understands the mail: the standard formats, then the documented
 * non-standard ones, then the free-text bounces, and auto-replies last (some bounces are marked
 * auto-replied too).
 */
const READERS: ((mail: ReportMail) => DeliveryReport[])[] = [
  (mail) =>
    mail
      .parts(FEEDBACK_REPORT_TYPE)
      .slice(0, 1)
      .flatMap((part) => readFeedbackReport(part, mail.original)),
  (mail) =>
    mail
      .parts(...DELIVERY_STATUS_TYPES)
      .flatMap((part) => readDeliveryStatus(part, splitAtQuotedOriginal(mail.text).own)),
  (mail) => readDeliveryStatusInText(mail.text),
  (mail) => readFeedbackReportInText(mail.text, mail.original),
  (mail) => readJunkMailReport(mail.original),
  (mail) => readAmazonSesNotification(mail.text),
  readPlainTextBounce,
  readAutoReply,
];

function readMail(mail: ReportMail): DeliveryReport[] {
  for (const read of READERS) {
    const reports = read(mail);
    if (reports.length > 0) return reports;
  }
  return [];
}

/*
 * A gateway that forwards another server's bounce as the message it returns (a content filter in
 * front of the mail server: "Unable to deliver message to <a@b>", no reason given, with the mail
 * server's own DSN or bounce text attached as message/rfc822): its own words say only that
 * delivery failed, the report inside says why. The returned message is read as a report, one
 * level deep (a report returned inside it is not opened), when the gateway's own reading is a
 * failure with no status code and the report inside is about the same recipient (or names none,
 * and then is about the gateway's).
 */
async function throughReturnedReport(reports: DeliveryReport[], mail: ReportMail): Promise<DeliveryReport[]> {
  const [outer] = reports;
  if (reports.length !== 1 || outer.kind !== 'soft' || outer.status !== undefined || outer.gaveUp) return reports;
  if (mail.returned === undefined) return reports;
  // A returned message mailparser refuses (a header block past its limit) leaves the gateway's own reading.
  const returned = await parseReportMail(mail.returned).catch(() => undefined);
  if (returned === undefined) return reports;
  const inner = readMail(returned);
  const recipient = (report: DeliveryReport) => report.recipient ?? outer.recipient;
  const same = outer.recipient === undefined || inner.every((report) => recipient(report) === outer.recipient);
  // Only a permanent failure, as the gateway says: words in an ordinary returned mail ("will keep trying") change nothing.
  const failed = inner.every((report) => report.kind === 'bounce' || report.kind === 'soft');
  if (inner.length === 0 || !same || !failed) return reports;
  return inner.map((report) => {
    const named = recipient(report);
    return { ...report, ...(named !== undefined && { recipient: named }) };
  });
}

function finish(report: DeliveryReport, mail: ReportMail): DeliveryReport {
  const originalMessageId = report.originalMessageId ?? mail.original?.first('message-id');
  const returnPath = mail.original?.first('return-path');
  const originalEnvelopeSender =
    report.originalEnvelopeSender ?? (returnPath === undefined ? undefined : addressIn(returnPath.trim()));
  return {
    ...report,
    diagnostic: report.diagnostic.slice(0, MAX_DIAGNOSTIC_LENGTH),
    ...(originalMessageId !== undefined && { originalMessageId }),
    ...(originalEnvelopeSender && { originalEnvelopeSender }),
  };
}

function unrecognized(diagnostic: string): DeliveryReport {
  return { kind: 'unrecognized', diagnostic };
}
