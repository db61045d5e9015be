import { DeliveryReport } from '../../src/deliverability/bounces/delivery-report';
import { readReports } from '../../src/deliverability/bounces/report-reader';

/*
 * Short reports written for this project in the style of real servers, read through the report
 * reader: the helpers of the reader's unit specs (src/deliverability/bounces/report-reader.*.spec.ts).
 */

/** What a spec compares: each report's kind and recipient, and whether the relay gave up. */
export const summary = (reports: DeliveryReport[]) =>
  reports.map(({ kind, recipient, gaveUp }) => ({ kind, recipient, ...(gaveUp && { gaveUp }) }));

/** Reads a report given as its header and body, with CRLF line ends as a mail server sends them. */
export const read = async (headers: string, body: string) =>
  summary(await readReports(Buffer.from(`${headers.trim()}\r\n\r\n${body}`.replace(/\r?\n/g, '\r\n'), 'latin1')));

/** A plain-text notice. */
export const notice = (from: string, subject: string, body: string, extra = '') =>
  read(`From: ${from}\nTo: sender@mailroom.example\nSubject: ${subject}\n${extra}`, body);

/** An RFC 3464 report with a human-readable part and one recipient group per entry of `groups`. */
export const dsn = (from: string, text: string, groups: string | string[], reportingMta = 'dns; mx.example.net') =>
  read(
    `From: ${from}\nTo: sender@mailroom.example\nSubject: Delivery Status Notification (Failure)\nMIME-Version: 1.0\n` +
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    `--b\nContent-Type: text/plain\n\n${text}\n--b\nContent-Type: message/delivery-status\n\n` +
      `Reporting-MTA: ${reportingMta}\n\n${[groups]
        .flat()
        .map((group) => group.trim())
        .join('\n\n')}\n--b--\n`,
  );

export const hard = (recipient?: string) => [{ kind: 'bounce', recipient }];
export const kept = (recipient?: string) => [{ kind: 'soft', recipient }];
