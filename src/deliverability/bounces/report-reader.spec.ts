import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryReport } from './delivery-report';
import { MAX_REPORT_BYTES, readReports } from './report-reader';
import { MAX_HEADER_BYTES } from '../../platform/mail/header-fields';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bounces');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'latin1');
// A mail server sends CRLF; files on disk (and some relays) have LF. Both must read the same.
const LINE_ENDS: [string, (text: string) => Buffer][] = [
  ['CRLF', (text) => Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'latin1')],
  ['LF', (text) => Buffer.from(text.replace(/\r\n/g, '\n'), 'latin1')],
];

describe.each(LINE_ENDS)('readReports (%s)', (_, encode) => {
  const sut = (name: string): Promise<DeliveryReport[]> => readReports(encode(fixture(name)));

  it('reads a Postfix DSN for an unknown user as a hard bounce of the recipient it names', async () => {
    expect(await sut('postfix-user-unknown.eml')).toEqual([
      {
        kind: 'bounce',
        recipient: 'nobody@example.org',
        status: '5.1.1',
        diagnostic: '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in local recipient table',
        originalMessageId: '<msg-0001@mailroom.example.com>',
      },
    ]);
  });

  it('reads every recipient group of a DSN: failed domain, delayed, relayed, full mailbox', async () => {
    const reports = await sut('rfc3464-several-recipients.eml');
    expect(reports.map(({ kind, recipient, status }) => ({ kind, recipient, status }))).toEqual([
      { kind: 'bounce', recipient: 'ghost@no-such-domain.example', status: '5.1.2' },
      { kind: 'delay', recipient: 'slow@example.org', status: '4.4.1' },
      { kind: 'other', recipient: 'legacy@example.org', status: '2.0.0' },
      { kind: 'soft', recipient: 'full@example.org', status: '5.2.2' },
    ]);
    expect(reports[0].diagnostic).toBe(
      'Host or domain name not found. Name service error for name=no-such-domain.example type=A: Host not found',
    );
    expect(reports.every((report) => report.originalMessageId === '<msg-0002@mailroom.example.com>')).toBe(true);
  });

  it('keeps the address when the refusal answered DATA, whatever the status code says', async () => {
    expect(await sut('postfix-refused-after-data.eml')).toEqual([
      expect.objectContaining({ kind: 'soft', recipient: 'kept@example.jp', status: '5.1.1' }),
    ]);
  });

  it('reads a relay giving up after days of retries (Action: failed, 4.4.7) as a soft failure that gave up', async () => {
    expect(await sut('sendmail-gave-up.eml')).toEqual([
      {
        kind: 'soft',
        gaveUp: true,
        recipient: 'far@example.org',
        status: '4.4.7',
        diagnostic: '421 4.4.2 mx.example.org: Connection timed out',
      },
    ]);
  });

  it('reads an Office 365 non-delivery report with an HTML notification', async () => {
    expect(await sut('office365-recipient-not-found.eml')).toEqual([
      {
        kind: 'bounce',
        recipient: 'gone@example.com',
        status: '5.1.10',
        diagnostic: '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
        originalMessageId: '<msg-0003@mailroom.example.com>',
      },
    ]);
  });

  it('reads a DMARC/authentication block as soft although Gmail marks its DSN auto-replied', async () => {
    expect(await sut('gmail-dmarc-block.eml')).toEqual([
      expect.objectContaining({ kind: 'soft', recipient: 'reader@gmail.com', status: '5.7.26' }),
    ]);
  });

  it('reads an RFC 5965 abuse report as a complaint about Original-Rcpt-To', async () => {
    expect(await sut('arf-abuse.eml')).toEqual([
      {
        kind: 'complaint',
        recipient: 'reader@isp.example.net',
        feedbackType: 'abuse',
        diagnostic: 'feedback report: abuse (ExampleFBL/1.0)',
        originalMessageId: '<msg-0004@mailroom.example.com>',
        // Original-Mail-From: how a report sent to abuse@ still names the VERP address.
        originalEnvelopeSender: 'bounces+fb5@bounce.example.com',
      },
    ]);
  });

  it('takes the recipients of a feedback report without Original-Rcpt-To from the returned message', async () => {
    const reports = await sut('arf-without-rcpt-to.eml');
    expect(
      reports.map(({ kind, recipient, feedbackType, originalMessageId }) => ({
        kind,
        recipient,
        feedbackType,
        originalMessageId,
      })),
    ).toEqual([
      {
        kind: 'complaint',
        recipient: 'first@hotmail.example',
        feedbackType: 'opt-out',
        originalMessageId: '<msg-0005@mailroom.example.com>',
      },
      {
        kind: 'complaint',
        recipient: 'second@hotmail.example',
        feedbackType: 'opt-out',
        originalMessageId: '<msg-0005@mailroom.example.com>',
      },
    ]);
  });

  it('reads an authentication failure report (RFC 6591) as other, not a complaint', async () => {
    expect(await sut('arf-auth-failure.eml')).toEqual([
      expect.objectContaining({
        kind: 'other',
        recipient: 'someone@receiver.example.org',
        feedbackType: 'auth-failure',
      }),
    ]);
  });

  it('reads a vacation notice (RFC 3834) as other, from the recipient who sent it', async () => {
    expect(await sut('vacation-auto-reply.eml')).toEqual([
      {
        kind: 'other',
        recipient: 'ada@example.org',
        diagnostic: 'auto-reply: Auto: November news',
        originalMessageId: '<msg-0007@mailroom.example.com>',
      },
    ]);
  });
});

// A DSN whose delivery-status part is empty, its notification text given.
const emptyReport = (text: string): string =>
  'Content-Type: multipart/report; report-type=delivery-status; boundary="e"\r\n\r\n--e\r\nContent-Type: text/plain\r\n\r\n' +
  `${text}\r\n--e\r\nContent-Type: message/delivery-status\r\n\r\n\r\n--e--\r\n`;

describe('readReports on what is no report', () => {
  it.each([
    ['an empty message', Buffer.alloc(0)],
    ['plain mail from a person', Buffer.from('From: a@example.org\r\nSubject: hi\r\n\r\nLunch on Friday?\r\n')],
    ['binary noise', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256))],
    ['a multipart/report whose parts say nothing', Buffer.from(emptyReport('Nothing to see here.'))],
  ])('reads %s as one unrecognized report', async (_, raw) => {
    const reports = await readReports(raw);
    expect(reports).toHaveLength(1);
    expect(reports[0].kind).toBe('unrecognized');
    expect(reports[0].diagnostic.length).toBeGreaterThan(0);
  });
});

describe('readReports falling back to the notification text', () => {
  it('reads the text of a DSN whose delivery-status part is empty', async () => {
    const text =
      'This is a permanent error.\r\n\r\n<nobody@example.org>: host mx.example.org said: 550 5.1.1 User unknown (in reply to RCPT TO command)';
    expect(await readReports(Buffer.from(emptyReport(text)))).toEqual([
      expect.objectContaining({ kind: 'bounce', recipient: 'nobody@example.org', status: '5.1.1' }),
    ]);
  });
});

describe('readReports at its size limit', () => {
  // The several-recipients DSN, its returned message padded so that the whole is `size` bytes.
  const reportOfSize = (size: number): Buffer => {
    const base = fixture('rfc3464-several-recipients.eml').replace(/\r?\n/g, '\r\n');
    const missing = size - Buffer.byteLength(base, 'latin1');
    const line = 'x'.repeat(74) + '\r\n';
    const padding = 'x'.repeat(missing % line.length) + line.repeat(Math.floor(missing / line.length));
    return Buffer.from(base.replace('Hello!', padding + 'Hello!'), 'latin1');
  };

  it(`reads a report of exactly ${MAX_REPORT_BYTES} bytes`, async () => {
    const raw = reportOfSize(MAX_REPORT_BYTES);
    expect(raw.length).toBe(MAX_REPORT_BYTES);
    expect((await readReports(raw)).map((report) => report.kind)).toEqual(['bounce', 'delay', 'other', 'soft']);
  });

  it('does not read one byte more', async () => {
    const raw = reportOfSize(MAX_REPORT_BYTES + 1);
    expect(raw.length).toBe(MAX_REPORT_BYTES + 1);
    expect(await readReports(raw)).toEqual([
      { kind: 'unrecognized', diagnostic: expect.stringContaining(String(MAX_REPORT_BYTES)) },
    ]);
  });
});

describe('readReports at its header size limit', () => {
  // The several-recipients DSN with its header section (the blank line that ends it included,
  // as mailparser counts) padded by a folded field to `size` bytes.
  const headerOfSize = (size: number): Buffer => {
    const [head, body] = fixture('rfc3464-several-recipients.eml')
      .replace(/\r?\n/g, '\r\n')
      .split(/\r\n\r\n(.*)/s);
    const missing = size - Buffer.byteLength(`${head}\r\nX-Padding: \r\n\r\n`);
    const fold = '\r\n ' + 'p'.repeat(72);
    const padding = 'p'.repeat(missing % fold.length) + fold.repeat(Math.floor(missing / fold.length));
    return Buffer.from(`${head}\r\nX-Padding: ${padding}\r\n\r\n${body}`, 'latin1');
  };

  it(`reads a report whose header section is exactly ${MAX_HEADER_BYTES} bytes`, async () => {
    const raw = headerOfSize(MAX_HEADER_BYTES);
    expect(raw.indexOf('\r\n\r\n') + 4).toBe(MAX_HEADER_BYTES);
    expect((await readReports(raw)).map((report) => report.kind)).toEqual(['bounce', 'delay', 'other', 'soft']);
  });

  it('does not read one whose header section is a byte longer', async () => {
    const raw = headerOfSize(MAX_HEADER_BYTES + 1);
    expect(raw.indexOf('\r\n\r\n') + 4).toBe(MAX_HEADER_BYTES + 1);
    expect(await readReports(raw)).toEqual([
      { kind: 'unrecognized', diagnostic: expect.stringContaining('header size') },
    ]);
  });
});

describe('readReports at its diagnostic length limit', () => {
  // The Postfix DSN with a one-line Diagnostic-Code of `length` characters after its type.
  const withDiagnostic = (length: number): { raw: Buffer; diagnostic: string } => {
    const diagnostic = `550 5.1.1 <nobody@example.org>: ${'x'.repeat(length - 32)}`;
    const text = fixture('postfix-user-unknown.eml').replace(
      /Diagnostic-Code: smtp; 550 5\.1\.1 <nobody@example\.org>: Recipient address\r?\n\s+rejected: User unknown in local recipient table/,
      `Diagnostic-Code: smtp; ${diagnostic}`,
    );
    expect(text).toContain(diagnostic);
    return { raw: Buffer.from(text, 'latin1'), diagnostic };
  };

  it('keeps a diagnostic of 1,000 characters whole', async () => {
    const { raw, diagnostic } = withDiagnostic(1000);
    expect(diagnostic).toHaveLength(1000);
    expect(await readReports(raw)).toEqual([
      expect.objectContaining({ kind: 'bounce', recipient: 'nobody@example.org', diagnostic }),
    ]);
  });

  it('cuts one of 1,001 characters to its first 1,000, and reads the report all the same', async () => {
    const { raw, diagnostic } = withDiagnostic(1001);
    expect(await readReports(raw)).toEqual([
      expect.objectContaining({
        kind: 'bounce',
        recipient: 'nobody@example.org',
        diagnostic: diagnostic.slice(0, 1000),
      }),
    ]);
  });
});
