// Memory under a flood of large batches (docs/api.md#sending): 16 clients (node:http) each send a 19 MiB
// POST /sender/send/batch at once to a real API process, run as deployed (the build, with 4 MiB
// semi-spaces: ts-node alone would hold some 100 MB of compiler that no deployment has),
// whose peak resident memory (VmHWM) must stay under 300 MB, both when the rate limit refuses the
// batches (each is 100 messages, more than the user's minute allows) and when it accepts them.
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/platform/free-port';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { ENTITIES } from '../../src/entities';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { rowsOwnedBy, sendBody } from '../support/factories';
import { bearer, newUserId } from '../support/tokens';

jest.setTimeout(300_000);

const MiB = 1024 * 1024;
const CLIENTS = 16;
const MESSAGES = 100;
const MAX_PEAK_MB = 300;
/** A first start may build (about 15 s here, longer on a busy machine). */
const BUILD_AND_START_MS = 150_000;

/** A batch of 100 messages of about 190 KiB each, half HTML and half text: 19 MiB of JSON. */
function largeBatch(): Buffer {
  const half = Math.floor(((19 * MiB) / MESSAGES - 300) / 2);
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(Math.ceil(half / 57)).slice(0, half);
  const html = `<p>${text.slice(7)}</p>`;
  const messages = Array.from({ length: MESSAGES }, (_, i) =>
    sendBody({ subject: `Large ${i}`, to: [`r${i}@example.com`], html, text }),
  );
  return Buffer.from(JSON.stringify({ messages }));
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Sends `body` in full with node:http (the server may answer before it has read it all). */
function post(url: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text, headers: response.headers }));
      },
    );
    // A refused body may be cut off once its answer is out: that is the server's right.
    request.on('error', (error) => answered || reject(error));
    request.end(body);
  });
}

const memoryOf = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

describe('16 clients sending 19 MiB batches at once to an API process', () => {
  const body = largeBatch();
  const measured: string[] = [];
  let db: DataSource;

  beforeAll(async () => {
    expect(body.length).toBeGreaterThan(18.9 * MiB);
    expect(body.length).toBeLessThan(19.1 * MiB);
    db = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
  });
  afterAll(async () => {
    console.log(`Peak RSS (VmHWM) of the API process: ${measured.join('; ')}`);
    await db?.destroy();
  });

  async function flood(rateLimitPerMinute: number): Promise<{ answers: Answer[]; peakMb: number; userId: string }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service: ServiceProcess = startServiceProcess(
      {
        ROLE: 'api',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: process.env.TEST_DATABASE_URL!,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
      },
      // As `npm start` runs it (package.json): the build (made first when the sources changed), with 4 MiB semi-spaces.
      { command: [process.execPath, '--max-semi-space-size=4', 'scripts/start.js'] },
    );
    try {
      await waitUntilAnswering(`${base}/health`, service, BUILD_AND_START_MS);
      const pid = service.child.pid!;
      // Starts the peak afresh (proc(5), clear_refs): start-up's own (ts-node compiling) is not the flood's.
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const atStart = memoryOf(pid, 'VmRSS');
      const userId = newUserId();
      const answers = await Promise.all(
        Array.from({ length: CLIENTS }, () => post(`${base}/sender/send/batch`, bearer(userId), body)),
      );
      const peakMb = memoryOf(pid, 'VmHWM');
      measured.push(
        `limit ${rateLimitPerMinute}: ${peakMb} MB (${atStart} MB before the flood), answers ${answers.map((a) => a.status).join(',')}`,
      );
      return { answers, peakMb, userId };
    } finally {
      await service.stop();
    }
  }

  it('stays under 300 MB when the rate limit refuses every batch', async () => {
    // 100 messages a batch, 50 a minute allowed: each batch is refused whole.
    const { answers, peakMb, userId } = await flood(50);
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.headers['ratelimit-limit']).toBe('50');
    }
    expect(await rowsOwnedBy(db, userId)).toMatchObject({ messages: 0 });
    expect(peakMb).toBeLessThan(MAX_PEAK_MB);
  });

  it('stays under 300 MB when every batch is accepted', async () => {
    const { answers, peakMb, userId } = await flood(100_000);
    expect(answers.map((a) => a.status)).toEqual(Array(CLIENTS).fill(201));
    expect(await rowsOwnedBy(db, userId)).toMatchObject({ messages: CLIENTS * MESSAGES });
    expect(peakMb).toBeLessThan(MAX_PEAK_MB);
  });
});
