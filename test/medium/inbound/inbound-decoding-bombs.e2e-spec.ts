// Decoding bombs (issue 33, item 11): 10 MiB of one-character lines of base64 or quoted-printable,
// or of quoted-printable soft line breaks, held a large-mail slot 10-20 s, the MIME splitter
// paying microseconds a line. A mail of more than InboundMailLimits.lines lines is refused before
// it is read; one at the limit is stored. Each is answered within a bound set by the CPU an ordinary
// mail of INBOUND_MAX_BYTES takes on this machine now (CPU, not wall time: the load of other
// processes hardly changes it).
import { InboundMailLimits } from '../../../src/inbound/inbound-mail-limits';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { cpuMsWhile } from '../../support/cpu-time';
import { mailOfLines, mailOfSize, rawMail } from '../../support/inbound/hostile-mail';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const MAX_BYTES = 10 * 1024 * 1024;

/** Fills a mail of `fields` up to about `bytes` with `unit` again and again. */
const filled = (fields: string[], unit: string, bytes = MAX_BYTES - 1024) =>
  rawMail(fields, unit.repeat(Math.floor(bytes / unit.length)));

const head = (encoding: string) => [
  'From: cara@example.org',
  'Subject: bomb',
  'MIME-Version: 1.0',
  'Content-Type: text/plain',
  `Content-Transfer-Encoding: ${encoding}`,
];

describe('decoding bombs', () => {
  const app = bootInboundApp();
  const { lines } = new InboundMailLimits();
  const mailbox = app.mailbox('bombs');

  /** The mail's outcome, and the CPU this process (client and app) spent on it, in ms. */
  const timed = async (raw: Buffer) => {
    const { result, cpuMs } = await cpuMsWhile(() =>
      sendWithNodemailer(app.port(), mailbox.to, raw, 'cara@example.org'),
    );
    return { outcome: result, ms: Math.round(cpuMs) };
  };

  it(
    `refuses 10 MiB of short lines (552) and stores ${lines} of them, each within a bound`,
    async () => {
      const ordinary = await timed(mailOfSize(MAX_BYTES));
      expect(ordinary.outcome).toMatchObject({ accepted: true });
      const bound = Math.max(5_000, 3 * ordinary.ms);
      const report = [`CPU of an ordinary 10 MiB mail: ${ordinary.ms} ms`];

      for (const [name, raw] of [
        ['base64, one character a line', filled(head('base64'), 'A\r\n')],
        ['quoted-printable, one character a line', filled(head('quoted-printable'), '=41\r\n')],
        ['quoted-printable soft line breaks', filled(head('quoted-printable'), '=\r\n')],
      ] as const) {
        const bomb = await timed(raw);
        report.push(`${name}: ${bomb.ms} ms`);
        expect(bomb.outcome).toEqual({
          accepted: false,
          code: 552,
          reply: `552 5.3.4 Message refused: more than ${lines} lines`,
        });
        expect(bomb.ms).toBeLessThan(bound);
      }

      const before = (await app.list(mailbox.userId)).total;
      const atLimit = await timed(mailOfLines(lines, 'A'));
      report.push(`${lines} lines: ${atLimit.ms} ms`);
      expect(atLimit.outcome).toMatchObject({ accepted: true });
      expect(atLimit.ms).toBeLessThan(bound);
      expect(await timed(mailOfLines(lines + 1, 'A'))).toMatchObject({
        outcome: { accepted: false, code: 552, reply: `552 5.3.4 Message refused: more than ${lines} lines` },
      });
      expect((await app.list(mailbox.userId)).total).toBe(before + 1);
      console.log(report.join('; '));
    },
    TIMEOUT,
  );
});
