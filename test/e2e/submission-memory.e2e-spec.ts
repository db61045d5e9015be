// Memory stays bounded whatever submission clients send (docs/api.md#smtp-submission): 20 nodemailer clients each
// submit a message of 19 MiB at once to a real API process, which takes every one of them while
// its peak RSS (VmHWM, sampled from /proc) stays under 300 MB.
import {
  ATTACHMENT_BYTES,
  BUILD_AND_START_MS,
  MAX_RSS_MB,
  MeasuredApi,
  startMeasuredApi,
} from '../support/measured-api';
import { bearer, newUserId } from '../support/tokens';
import { submitWithNodemailer } from '../support/submission/submission-clients';

const CLIENTS = 20;

describe('20 concurrent submissions of 19 MiB', () => {
  let api: MeasuredApi;
  let base: string;
  let smtpPort: number;

  const statusKb = (field: 'VmRSS' | 'VmHWM') => api.statusMb(field) * 1024;

  beforeAll(async () => {
    api = await startMeasuredApi();
    ({ base, smtpPort } = api);
  }, BUILD_AND_START_MS + 30_000);
  afterAll(() => api?.service.stop());

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
