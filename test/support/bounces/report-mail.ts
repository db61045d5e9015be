// Reports as mail servers send them, written for these tests from the layouts of RFC 3464 §6
// (delivery status notifications), RFC 5965 §3 (feedback reports) and RFC 3834 §5 (auto-replies).
// Only the layout comes from the RFCs; the values are this project's.
import { randomUUID } from 'node:crypto';

const CRLF = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** The quoted original's headers: what a bounce returns of the message it is about. */
function originalHeaders(messageId: string, recipient: string): string {
  return `From: billing@example.com
To: ${recipient}
Subject: Your invoice
Message-ID: <${messageId}@example.com>
`;
}

export interface StatusField {
  recipient: string;
  action: 'failed' | 'delayed' | 'delivered';
  status: string;
  diagnostic: string;
}

/** A multipart/report; report-type=delivery-status, one per-recipient block per entry of `fields`. */
export function dsn(to: string, messageId: string, fields: StatusField[]): Buffer {
  const boundary = `dsn-${randomUUID()}`;
  const blocks = fields
    .map(
      (f) => `Final-Recipient: rfc822; ${f.recipient}
Action: ${f.action}
Status: ${f.status}
Remote-MTA: dns; mx.recipient.example
Diagnostic-Code: smtp; ${f.diagnostic}
`,
    )
    .join('\n');
  return Buffer.from(
    CRLF(`Date: Tue, 24 Nov 2026 10:00:00 +0000
From: Mail Delivery Subsystem <MAILER-DAEMON@relay.example.net>
To: ${to}
Subject: Returned mail: see transcript for details
Message-ID: <${randomUUID()}@relay.example.net>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"

--${boundary}
Content-Type: text/plain; charset=us-ascii

This is the mail system at host relay.example.net.
Your message could not be delivered to one or more recipients.

--${boundary}
Content-Type: message/delivery-status

Reporting-MTA: dns; relay.example.net
Arrival-Date: Tue, 24 Nov 2026 09:59:58 +0000

${blocks}
--${boundary}
Content-Type: text/rfc822-headers

${originalHeaders(messageId, fields[0].recipient)}
--${boundary}--
`),
  );
}

/**
 * A multipart/report; report-type=feedback-report (ARF) of `feedbackType` about `recipient`. With
 * `originalTo`, it names no Original-Rcpt-To (optional in RFC 5965) and the returned message is to those.
 */
export function arf(
  to: string,
  messageId: string,
  recipient: string,
  feedbackType = 'abuse',
  originalTo?: string[],
): Buffer {
  const boundary = `arf-${randomUUID()}`;
  return Buffer.from(
    CRLF(`Date: Tue, 24 Nov 2026 11:00:00 +0000
From: Feedback Loop <fbl@isp.example>
To: ${to}
Subject: FW: Your invoice
Message-ID: <${randomUUID()}@isp.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"

--${boundary}
Content-Type: text/plain; charset=us-ascii

This is an email abuse report for an email message received from IP 192.0.2.1.

--${boundary}
Content-Type: message/feedback-report

Feedback-Type: ${feedbackType}
User-Agent: ExampleFBL/1.0
Version: 1
Original-Mail-From: <${to}>
${originalTo ? '' : `Original-Rcpt-To: <${recipient}>\n`}Arrival-Date: Tue, 24 Nov 2026 10:00:00 +0000
Source-IP: 192.0.2.1

--${boundary}
Content-Type: message/rfc822

${originalHeaders(messageId, originalTo?.join(', ') ?? recipient)}
Hello Ada
--${boundary}--
`),
  );
}

/** An out-of-office answer (RFC 3834: Auto-Submitted: auto-replied), sent to the envelope sender. */
export function autoReply(to: string, from: string): Buffer {
  return Buffer.from(
    CRLF(`Date: Tue, 24 Nov 2026 12:00:00 +0000
From: ${from}
To: ${to}
Subject: Out of office: Your invoice
Message-ID: <${randomUUID()}@recipient.example>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: text/plain; charset=us-ascii

I am away until Monday and will read your message when I am back.
`),
  );
}
