// Reading back a large submitted message keeps the API process's memory bounded (docs/api.md#reading-back): one
// message of 19 MiB submitted over real SMTP, then 40 clients downloading its attachment at once
// (its MIME parsed once, by the first read), and 20 clients that ask for its attachment, then its
// .eml, and never read it. The process's peak RSS (VmHWM, reset
// between the floods through /proc/<pid>/clear_refs) stays under 300 MB in each.
import { connect, Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import {
  ATTACHMENT_BYTES,
  BUILD_AND_START_MS,
  MAX_RSS_MB,
  MeasuredApi,
  startMeasuredApi,
} from '../support/measured-api';
import { bearer, newUserId } from '../support/tokens';
import { submitWithNodemailer } from '../support/submission/submission-clients';

const READERS = 40;
const ATTACHMENT = Buffer.alloc(ATTACHMENT_BYTES, 7);
const NON_READERS = 20;
/** What `run` gives and how long it took, in whole ms. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: Math.round(performance.now() - started) };
}

describe('reading back a 19 MiB submitted message, many clients at once', () => {
  let api: MeasuredApi;
  let base: string;
  let port: number;
  let key: string;
  let id: string;
  const statusMb = (field: 'VmRSS' | 'VmHWM') => api.statusMb(field);
  const resetPeak = () => api.resetPeak();

  beforeAll(async () => {
    api = await startMeasuredApi({ RATE_LIMIT_PER_MINUTE: '1000000' });
    ({ base, port } = api);

    const userId = newUserId('read-back-memory');
    const created = await fetch(`${base}/user/api-keys`, {
      method: 'POST',
      headers: { ...bearer(userId), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'memory', scopes: ['send', 'read'] }),
    });
    expect(created.status).toBe(201);
    key = ((await created.json()) as { key: string }).key;
    const outcome = await submitWithNodemailer(api.smtpPort, key, {
      from: 'big@sender.example',
      to: 'ann@rcpt.example',
      subject: 'big',
      html: '<p>The report is attached.</p>',
      attachments: [{ filename: 'report.bin', content: ATTACHMENT }],
    });
    expect(outcome).toMatchObject({ accepted: true });
    const listed = await fetch(`${base}/user/messages`, { headers: { Authorization: `Bearer ${key}` } });
    [{ id }] = ((await listed.json()) as { messages: { id: string }[] }).messages;
  }, BUILD_AND_START_MS + 120_000);
  afterAll(() => api?.service.stop());

  /** NON_READERS clients each ask for `path`, take the first bytes of the answer (the server has begun), then read no more. */
  const beginUnread = (path: string, sockets: Socket[]): Promise<string[]> =>
    Promise.all(
      Array.from(
        { length: NON_READERS },
        () =>
          new Promise<string>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () =>
              socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`),
            );
            sockets.push(socket);
            socket.once('error', reject);
            socket.once('data', (chunk: Buffer) => {
              socket.pause();
              resolve(chunk.toString('latin1').split('\r\n')[0]);
            });
          }),
      ),
    );

  /** How often the API process has parsed a submitted MIME whole (its Prometheus counter). */
  const parses = async (): Promise<number> => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('mailroom_read_back_parses_total '));
    return line === undefined ? NaN : Number(line.split(' ')[1]);
  };

  const download = async (): Promise<string> => {
    const response = await fetch(`${base}/user/messages/${id}/attachments/0`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    return body.equals(ATTACHMENT) ? 'whole' : `${body.length} bytes`;
  };

  it(`serves the attachment to ${READERS} clients at once under ${MAX_RSS_MB} MB, parsing the message once`, async () => {
    // The first read of the message parses its MIME; each read did so again before it was kept.
    const cold = await timed(download);
    const warm = await timed(download);
    resetPeak();
    const atStart = statusMb('VmRSS');
    const flood = await timed(() => Promise.all(Array.from({ length: READERS }, download)));
    const peak = statusMb('VmHWM');
    console.log(
      `API process RSS: ${atStart} MB before, peak ${peak} MB while ${READERS} clients downloaded the attachment; ` +
        `the first download (a parse) took ${cold.ms} ms, the second ${warm.ms} ms, the ${READERS} after them ${flood.ms} ms`,
    );
    expect([cold.value, warm.value]).toEqual(['whole', 'whole']);
    expect(flood.value).toEqual(Array.from({ length: READERS }, () => 'whole'));
    expect(peak).toBeLessThan(MAX_RSS_MB);
    // The times are logged, not bounded: 40 transfers of 14 MiB on two busy cores take most of the
    // flood's (about 17-21 first reads' time here, 26-31 when each parsed again), and a second read
    // took 0.5-0.65 of the first against 0.7 before: too near to tell apart on a busy machine.
    // Parsed once, by the first read: the 41 after it read the ranges it found.
    expect(await parses()).toBe(1);
  }, 300_000);

  it(`holds ${NON_READERS} attachment downloads that are never read under ${MAX_RSS_MB} MB`, async () => {
    resetPeak();
    const atStart = statusMb('VmRSS');
    const sockets: Socket[] = [];
    try {
      const firsts = await beginUnread(`/user/messages/${id}/attachments/0`, sockets);
      expect(firsts).toEqual(Array.from({ length: NON_READERS }, () => 'HTTP/1.1 200 OK'));
      const heldAtOnce = statusMb('VmHWM');
      // And while they stay unread, the whole attachment still comes.
      expect(await download()).toBe('whole');
      const peak = statusMb('VmHWM');
      console.log(
        `API process RSS: ${atStart} MB before, peak ${heldAtOnce} MB with ${NON_READERS} unread attachment downloads begun, ${peak} MB after one more read whole`,
      );
      expect(peak).toBeLessThan(MAX_RSS_MB);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 300_000);

  it(`holds ${NON_READERS} .eml downloads that are never read under ${MAX_RSS_MB} MB, and serves the whole .eml`, async () => {
    resetPeak();
    const atStart = statusMb('VmRSS');
    const sockets: Socket[] = [];
    try {
      const firsts = await beginUnread(`/user/messages/${id}/raw`, sockets);
      expect(firsts).toEqual(Array.from({ length: NON_READERS }, () => 'HTTP/1.1 200 OK'));
      // The server is writing to all of them: what each holds now is what it keeps while its client reads nothing.
      const heldAtOnce = statusMb('VmHWM');
      // And while they stay unread, a whole .eml still comes, every byte of the attachment in it.
      const response = await fetch(`${base}/user/messages/${id}/raw`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      const eml = await simpleParser(Buffer.from(await response.arrayBuffer()));
      expect(eml.attachments.map((a) => [a.filename, a.size])).toEqual([['report.bin', ATTACHMENT_BYTES]]);
      const peak = statusMb('VmHWM');
      console.log(
        `API process RSS: ${atStart} MB before, peak ${heldAtOnce} MB with ${NON_READERS} unread .eml downloads begun, ${peak} MB after one more read whole`,
      );
      expect(peak).toBeLessThan(MAX_RSS_MB);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 300_000);
});
