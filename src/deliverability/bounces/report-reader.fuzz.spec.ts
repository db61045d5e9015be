import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReports } from './report-reader';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bounces');
const samples = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.eml'))
  .map((name) => readFileSync(join(FIXTURES, name)));

// Every answer must be a list of at least one well-formed report.
function expectWellFormed(reports: Awaited<ReturnType<typeof readReports>>): void {
  expect(reports.length).toBeGreaterThan(0);
  for (const report of reports) {
    expect(['bounce', 'soft', 'delay', 'complaint', 'other', 'unrecognized']).toContain(report.kind);
    expect(typeof report.diagnostic).toBe('string');
  }
}

describe('readReports under random input', () => {
  it('never throws on random bytes, and never reads a bounce in them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), async (bytes) => {
        const reports = await readReports(Buffer.from(bytes));
        expectWellFormed(reports);
        expect(reports.some((report) => report.kind === 'bounce')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('never reads a bounce in random text under mail headers', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 2000 });
    await fc.assert(
      fc.asyncProperty(text, text, async (subject, body) => {
        const raw = Buffer.from(
          `From: MAILER-DAEMON@example.net\r\nSubject: ${subject.replace(/[\r\n]/g, ' ')}\r\n\r\n${body}`,
        );
        const reports = await readReports(raw);
        expectWellFormed(reports);
        expect(reports.some((report) => report.kind === 'bounce')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('never reads a bounce from random field values in a delivery-status part', async () => {
    const value = fc.string({ maxLength: 80 }).map((text) => text.replace(/[\r\n]/g, ' '));
    await fc.assert(
      fc.asyncProperty(value, value, value, async (action, status, diagnostic) => {
        const raw = Buffer.from(
          'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n--b\r\n' +
            'Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; example.net\r\n\r\n' +
            `Final-Recipient: rfc822; a@example.org\r\nAction: ${action}\r\nStatus: ${status}\r\nDiagnostic-Code: smtp; ${diagnostic}\r\n--b--\r\n`,
        );
        const reports = await readReports(raw);
        expectWellFormed(reports);
        expect(reports.some((report) => report.kind === 'bounce')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on the samples cut short or with bytes overwritten', async () => {
    const mutation = fc.record({
      sample: fc.constantFrom(...samples),
      cut: fc.nat(),
      writes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 20 }),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ sample, cut, writes }) => {
        const raw = Buffer.from(sample.subarray(0, sample.length - (cut % sample.length)));
        for (const [at, byte] of writes) if (raw.length > 0) raw[at % raw.length] = byte;
        expectWellFormed(await readReports(raw));
      }),
      { numRuns: 300 },
    );
  });
});
