// Memory stays bounded whatever port 25 receives (docs/inbound.md): 20 nodemailer clients each send a
// mail of nearly 10 MiB (INBOUND_MAX_BYTES) at once to a real process as `npm start` runs it,
// which stores every one while its peak RSS (VmHWM, from /proc) stays under 300 MB.
import { sendWithNodemailer } from '../support/bounces/smtp-clients';
import { newUserId } from '../support/tokens';
import MailComposer from 'nodemailer/lib/mail-composer';
import { inboundProcess, receivingDomain } from '../support/inbound/process-api';

const MiB = 1024 * 1024;
const MAX_RSS_MB = 300;
const CLIENTS = 20;
// Base64 in 76-character lines makes 7.2 MiB of attachment some 9.9 MiB of mail.
const ATTACHMENT_BYTES = Math.round(7.2 * MiB);
/** A first start may build (about 15 s here, longer on a busy machine). */
const BUILD_AND_START_MS = 150_000;

describe('20 concurrent inbound mails of 10 MiB', () => {
  // As `npm start` runs it (package.json): the build (made first when the sources changed), with 4 MiB semi-spaces.
  const { dns, api, smtpPort, memoryMb } = inboundProcess(BUILD_AND_START_MS, [
    process.execPath,
    '--max-semi-space-size=4',
    'scripts/start.js',
  ]);

  it('stores every mail while the process stays under 300 MB of RSS', async () => {
    const userId = newUserId('inbound-memory');
    const domainName = await receivingDomain(api, dns, userId, 'memory');
    const mails = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        new MailComposer({
          from: 'big@sender.example',
          to: `desk@${domainName}`,
          subject: `big ${i}`,
          text: 'The report is attached.',
          attachments: [{ filename: 'report.bin', content: Buffer.alloc(ATTACHMENT_BYTES, i + 1) }],
        })
          .compile()
          .build(),
      ),
    );
    for (const mail of mails) expect(mail.length).toBeLessThanOrEqual(10 * MiB);
    expect(mails[0].length).toBeGreaterThan(9.5 * MiB);
    const atStart = Math.round(memoryMb('VmRSS'));

    const started = Date.now();
    const outcomes = await Promise.all(
      mails.map((mail) => sendWithNodemailer(smtpPort(), `desk@${domainName}`, mail, 'big@sender.example')),
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const peakMb = Math.round(memoryMb('VmHWM'));
    console.log(
      `Process RSS: ${atStart} MB at start, peak ${peakMb} MB (VmHWM) while ${CLIENTS} clients sent ${(mails[0].length / MiB).toFixed(1)} MiB each in ${seconds} s`,
    );

    expect(outcomes.filter((o) => !o.accepted)).toEqual([]);
    expect(peakMb).toBeLessThan(MAX_RSS_MB);
    const listed = await api(userId, 'GET', '/user/inbound?take=100');
    expect(listed.body.total).toBe(CLIENTS);
    expect(listed.body.inbound.map((item: { attachments: { size: number }[] }) => item.attachments[0].size)).toEqual(
      Array(CLIENTS).fill(ATTACHMENT_BYTES),
    );
  }, 300_000);
});
