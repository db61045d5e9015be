import fc from 'fast-check';
import { hostileString } from './text';

/*
 * Generated mail for the inbound listener (docs/delivery-and-deliverability.md): plans drawn by fast-check, written into
 * bytes once the run knows which message and recipient it aims at. Each plan says what it may
 * cause, so that the suite can tell a change SPEC allows from one it does not:
 * - noise (random text, binary, broken MIME, with no word of failure: a subject such as
 *   "Undelivered Mail Returned to Sender" alone is read as a bounce): never a status change,
 *   never a suppression;
 * - dsn (a delivery status notification with random, missing or broken fields): at most
 *   `bounced`, and a suppression only when its status or diagnostic says the address is bad;
 * - arf (a feedback report with a random Feedback-Type): at most `complained`.
 */

/** Who a report names: the recipient the token names, someone else, junk, or nobody. */
export type Named = 'self' | 'other' | 'junk' | 'missing';
export type Framing = 'good' | 'unclosed' | 'wrong-boundary' | 'no-boundary' | 'nested-rfc822';

export interface NoisePlan {
  family: 'noise';
  headers: string[];
  contentType: string | undefined;
  body: string | Uint8Array;
  filler: number;
}
export interface DsnPlan {
  family: 'dsn';
  action: string | undefined;
  status: string | undefined;
  diagnostic: string | undefined;
  named: Named;
  framing: Framing;
  charset: string;
  filler: number;
}
export interface ArfPlan {
  family: 'arf';
  feedbackType: string | undefined;
  named: Named;
  framing: Framing;
  filler: number;
}
export type ReportPlan = NoisePlan | DsnPlan | ArfPlan;

/** RFC 3463 codes about the address itself (X.1.1, X.1.2, X.1.3, X.1.6, X.1.10) and vague ones the words decide (X.1.0, X.4.4). */
export const ADDRESS_STATUSES = ['5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10', '5.1.0', '5.4.4', '5.1.351'];
/** Diagnostics that say the address is bad, as real servers word them. */
export const ADDRESS_DIAGNOSTICS = [
  '550 5.1.1 <x>: Recipient address rejected: User unknown in local recipient table',
  '550-5.1.1 The email account that you tried to reach does not exist.',
  '553 sorry, no mailbox here by that name. (#5.1.1)',
  'Host or domain name not found. Name service error for name=nowhere.example type=A: Host not found',
];
const OTHER_DIAGNOSTICS = [
  '552 5.2.2 Mailbox full',
  '550 5.7.1 Message rejected as spam',
  '421 4.7.0 Try again later',
  '554 5.7.1 Service unavailable; Client host blocked using zen.spamhaus.org',
  '250 2.0.0 Ok: queued as ABC',
];

const junk = hostileString.filter((s) => s.length < 5_000);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 5 });
const named = fc.constantFrom<Named>('self', 'other', 'junk', 'missing');
const framing = fc.constantFrom<Framing>('good', 'good', 'unclosed', 'wrong-boundary', 'no-boundary', 'nested-rfc822');
// Mostly nothing; sometimes a header line far past RFC 5322's 998 characters, or the reader's 64 KiB header section.
const filler = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.nat({ max: 5_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 200_000 }) },
);

const noise: fc.Arbitrary<NoisePlan> = fc.record({
  family: fc.constant('noise' as const),
  headers: fc.array(
    fc.oneof(
      junk,
      fc.constantFrom(
        'Subject: hello',
        'From: MAILER-DAEMON@relay.example',
        'MIME-Version: 1.0',
        'Content-Transfer-Encoding: base64',
      ),
    ),
    { maxLength: 6 },
  ),
  contentType: maybe(
    fc.oneof(
      junk,
      fc.constantFrom(
        'multipart/report; report-type=delivery-status',
        'multipart/report; report-type=feedback-report; boundary=""',
        'message/rfc822',
        'text/plain; charset=x-unknown',
        'multipart/mixed; boundary="',
      ),
    ),
  ),
  body: fc.oneof(
    junk,
    fc.uint8Array({ maxLength: 4_000 }),
    fc.nat({ max: 1_200_000 }).map((n) => 'y'.repeat(n)),
  ),
  filler,
});

const dsnPlan: fc.Arbitrary<DsnPlan> = fc.record({
  family: fc.constant('dsn' as const),
  action: maybe(
    fc.oneof(
      fc.constantFrom('failed', 'FAILED', 'delayed', 'delivered', 'relayed', 'expanded', 'failed (bad)', ''),
      junk,
    ),
  ),
  status: maybe(
    fc.oneof(
      fc.constantFrom(...ADDRESS_STATUSES, '5.2.2', '5.7.1', '4.4.1', '2.0.0', '9.9.9', '5.1', '5..1', '5.1.1.1', ''),
      junk,
    ),
  ),
  diagnostic: maybe(fc.oneof(fc.constantFrom(...ADDRESS_DIAGNOSTICS, ...OTHER_DIAGNOSTICS), junk)),
  named,
  framing,
  charset: fc.oneof(
    fc.constantFrom('us-ascii', 'utf-8', 'utf-7', 'iso-2022-jp', 'x-unknown', 'ebcdic-cp-us', ''),
    junk,
  ),
  filler,
});

const arfPlan: fc.Arbitrary<ArfPlan> = fc.record({
  family: fc.constant('arf' as const),
  feedbackType: maybe(
    fc.oneof(fc.constantFrom('abuse', 'ABUSE', 'opt-out', 'fraud', 'virus', 'not-spam', 'other', ''), junk),
  ),
  named,
  framing,
  filler,
});

export const reportPlan: fc.Arbitrary<ReportPlan> = fc.oneof(
  { weight: 3, arbitrary: noise },
  { weight: 5, arbitrary: dsnPlan },
  { weight: 2, arbitrary: arfPlan },
);

/** Whether a DSN plan carries anything that says the address itself is bad. */
export function saysAddressIsBad(plan: DsnPlan): boolean {
  return ADDRESS_STATUSES.includes(plan.status ?? '') || ADDRESS_DIAGNOSTICS.includes(plan.diagnostic ?? '');
}

export interface Aim {
  /** The VERP address the mail goes to. */
  rcpt: string;
  /** The recipient its token names. */
  self: string;
  /** An address of another user's message. */
  other: string;
}

const line = (name: string, value: string | undefined) => (value === undefined ? '' : `${name}: ${value}\r\n`);
const fillerLine = (n: number) => (n > 0 ? `X-Filler: ${'f'.repeat(n)}\r\n` : '');

function nameIn(which: Named, aim: Aim, junkText: string): string | undefined {
  return { self: aim.self, other: aim.other, junk: junkText, missing: undefined }[which];
}

/** A multipart/report around `parts`, framed as the plan says. */
function frame(
  reportType: string,
  parts: [contentType: string, body: string][],
  how: Framing,
  headers: string,
): Buffer {
  const boundary = 'b-1f0e';
  const written = how === 'wrong-boundary' ? 'not-the-boundary' : boundary;
  const body = parts
    .map(
      ([type, text]) => (how === 'no-boundary' ? '' : `--${written}\r\n`) + `Content-Type: ${type}\r\n\r\n${text}\r\n`,
    )
    .join('');
  const close = how === 'unclosed' || how === 'no-boundary' ? '' : `--${written}--\r\n`;
  const report = `${headers}MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=${reportType}; boundary="${boundary}"\r\n\r\n${body}${close}`;
  if (how !== 'nested-rfc822') return Buffer.from(report);
  // A forwarded report: the whole of it inside a message/rfc822 part of a multipart/mixed.
  return Buffer.from(
    `${headers}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="outer"\r\n\r\n--outer\r\nContent-Type: text/plain\r\n\r\nFYI, forwarded.\r\n` +
      `--outer\r\nContent-Type: message/rfc822\r\n\r\n${report.replace('b-1f0e', 'b-inner').split('--b-1f0e').join('--b-inner')}\r\n--outer--\r\n`,
  );
}

/** The bytes of a planned mail aimed at `aim`. */
export function writeReport(plan: ReportPlan, aim: Aim): Buffer {
  const junkText = 'j\u0000nk\r\n\u202e@@';
  if (plan.family === 'noise') {
    const headers =
      plan.headers.map((h) => `${h}\r\n`).join('') + line('Content-Type', plan.contentType) + fillerLine(plan.filler);
    const body = typeof plan.body === 'string' ? Buffer.from(plan.body) : Buffer.from(plan.body);
    return Buffer.concat([Buffer.from(`${headers}To: ${aim.rcpt}\r\n\r\n`), body]);
  }
  const headers = `From: Mail Delivery System <MAILER-DAEMON@relay.example.net>\r\nTo: ${aim.rcpt}\r\nSubject: report\r\n${fillerLine(plan.filler)}`;
  const recipient = nameIn(plan.named, aim, junkText);
  if (plan.family === 'dsn') {
    const fields =
      line('Final-Recipient', recipient === undefined ? undefined : `rfc822; ${recipient}`) +
      line('Action', plan.action) +
      line('Status', plan.status) +
      line('Diagnostic-Code', plan.diagnostic === undefined ? undefined : `smtp; ${plan.diagnostic}`);
    return frame(
      'delivery-status',
      [
        [
          `text/plain; charset=${plan.charset}`,
          'This is the mail system at host relay.example.net. Your message could not be delivered.',
        ],
        ['message/delivery-status', `Reporting-MTA: dns; relay.example.net\r\n\r\n${fields}`],
        ['text/rfc822-headers', `From: billing@example.com\r\nSubject: Your invoice\r\n`],
      ],
      plan.framing,
      headers,
    );
  }
  const feedback =
    line('Feedback-Type', plan.feedbackType) +
    'User-Agent: FuzzFBL/1.0\r\nVersion: 1\r\n' +
    line('Original-Rcpt-To', recipient);
  return frame(
    'feedback-report',
    [
      ['text/plain', 'This is an abuse report.'],
      ['message/feedback-report', feedback],
      ['message/rfc822', `From: billing@example.com\r\nSubject: Your invoice\r\n\r\nHello\r\n`],
    ],
    plan.framing,
    headers,
  );
}
