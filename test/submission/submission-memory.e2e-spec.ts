// Memory stays bounded whatever submission clients send (SPEC §10): 20 nodemailer clients each
// submit a message of 19 MiB at once to a real API process, which takes every one of them while
// its peak RSS (VmHWM, sampled from /proc) stays under 300 MB.
import { readFileSync } from 'node:fs';
import { freePort } from '../../src/common/free-port';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { bearer, newUserId } from '../support/tokens';
import { submitWithNodemailer } from './submission-clients';

const MiB = 1024 * 1024;
const MAX_RSS_MB = 300;
const CLIENTS = 20;
// Base64 in 76-character lines makes 13.8 MiB of attachment some 18.9 MiB of message.
const ATTACHMENT_BYTES = Math.round(13.8 * MiB);
/** A first start may build (about 15 s here, longer on a busy machine). */
const BUILD_AND_START_MS = 150_000;

describe('20 concurrent submissions of 19 MiB', () => {
  let service: ServiceProcess;
  let base: string;
  let smtpPort: number;

  const statusKb = (field: 'VmRSS' | 'VmHWM') =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))![1]);

  beforeAll(async () => {
    const port = await freePort();
    smtpPort = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = startServiceProcess(
      {
        ROLE: 'api',
        HOST: '127.0.0.1',
        PORT: String(port),
        SUBMISSION_SMTP_PORT: String(smtpPort),
        SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
        MAX_ATTACHMENT_BYTES: String(15 * MiB),
        DATABASE_URL: process.env.TEST_DATABASE_URL!,
        LOG_LEVEL: 'warn',
      },
      // As `npm start` runs it (package.json): the build (made first when the sources changed), with 4 MiB semi-spaces.
      { command: [process.execPath, '--max-semi-space-size=4', 'scripts/start.js'] },
    );
    await waitUntilAnswering(`${base}/health`, service, BUILD_AND_START_MS);
  }, BUILD_AND_START_MS + 30_000);
  afterAll(() => service?.stop());

  it('takes every message while the API process stays under 300 MB of RSS', async () => {
    const userId = newUserId('smtp-memory');
    const created = await fetch(`${base}/user/api-keys`, {
      method: 'POST',
      headers: { ...bearer(userId), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'memory', scopes: ['send', 'read'] }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const atStart = Math.round(statusKb('VmRSS') / 1024);

    let sampledMax = 0;
    const sampler = setInterval(() => (sampledMax = Math.max(sampledMax, statusKb('VmRSS'))), 50);
    const started = Date.now();
    let outcomes;
    try {
      outcomes = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) =>
          submitWithNodemailer(smtpPort, key, {
            from: 'big@sender.example',
            to: 'ann@rcpt.example',
            subject: `big ${i}`,
            html: '<p>The report is attached.</p>',
            attachments: [{ filename: 'report.bin', content: Buffer.alloc(ATTACHMENT_BYTES, i + 1) }],
          }),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const peakMb = Math.round(statusKb('VmHWM') / 1024);
    console.log(
      `API process RSS: ${atStart} MB at start, peak ${peakMb} MB (VmHWM; sampled max ${Math.round(sampledMax / 1024)} MB) while ${CLIENTS} clients submitted 19 MiB each in ${seconds} s`,
    );

    expect(outcomes.filter((o) => !o.accepted)).toEqual([]);
    expect(peakMb).toBeLessThan(MAX_RSS_MB);
    // Every one stored, whole.
    const listed = await fetch(`${base}/user/messages`, { headers: bearer(userId) });
    const { total } = (await listed.json()) as { total: number };
    expect(total).toBe(CLIENTS);
  }, 300_000);
});
