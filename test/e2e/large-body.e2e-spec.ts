// A body far over its limit (200 MiB) is refused with 413 as soon as the limit is passed: at once
// when Content-Length declares it, at the limit when it comes chunked. The client, Node's own
// HTTP client streaming the body, sees the answer before it has finished sending, and the
// service (a real process) neither reads the rest nor keeps the memory.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/platform/free-port';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { ENTITIES } from '../../src/entities';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { rowsOwnedBy } from '../support/factories';
import { bearer, newUserId } from '../support/tokens';

const MiB = 1024 * 1024;
const UPLOAD_BYTES = 200 * MiB;
const MAX_RSS_MB = 300;
const ATTEMPTS = 5;

interface Outcome {
  status: number;
  body: string;
  connection: string | undefined;
  /** Bytes the client had handed to its socket when the answer arrived. */
  sentWhenAnswered: number;
}

// How long a client that has paused its body waits for the answer before it calls the server stuck.
const ANSWER_WAIT_MS = 15_000;

/**
 * Streams `prefix`, filler and `suffix` with node:http, declaring UPLOAD_BYTES of body, and stops
 * writing when the answer comes or once `pauseAfter` bytes are out. A paused client then waits
 * for the answer: a server that needs more of the body before it answers never gives one. So the
 * bound on what was sent is the client's own, not a race between its writes and its reads.
 */
function streamBody(
  url: string,
  headers: Record<string, string>,
  prefix: string,
  suffix: string,
  chunked: boolean,
  pauseAfter: number,
): Promise<Outcome> {
  const length = Buffer.byteLength(prefix) + UPLOAD_BYTES + Buffer.byteLength(suffix);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let stuck: NodeJS.Timeout | undefined;
    const request = httpRequest(url, {
      method: 'POST',
      headers: chunked ? headers : { ...headers, 'Content-Length': String(length) },
    });
    request.on('response', (response) => {
      answered = true;
      clearTimeout(stuck);
      const sentWhenAnswered = sent;
      let body = '';
      response.setEncoding('utf8').on('data', (text: string) => (body += text));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode!, body, connection: response.headers.connection, sentWhenAnswered });
      });
    });
    // Once the answer is in, a write into the closed connection may fail: that is expected.
    request.on('error', (error) => answered || reject(new Error(`no answer after ${sent} bytes: ${error.message}`)));
    const write = () => {
      if (sent === 0) request.write(prefix);
      while (!answered && sent + chunk.length <= pauseAfter) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', write);
      }
      if (answered) return;
      stuck = setTimeout(() => {
        request.destroy();
        reject(new Error(`no answer within ${ANSWER_WAIT_MS} ms after ${sent} bytes of the body`));
      }, ANSWER_WAIT_MS);
    };
    write();
  });
}

describe('a 200 MiB body', () => {
  let service: ServiceProcess;
  let base: string;
  let db: DataSource;
  const rss: string[] = [];

  const rssMb = () =>
    Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))![1]) / 1024);

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Run as `npm start` runs it (the build, Node's flags), as the other memory suites do: under
    // ts-node the compiler's own memory alone had the process at 292 MB before any request.
    service = startServiceProcess(
      {
        ROLE: 'api',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: process.env.TEST_DATABASE_URL!,
        LOG_LEVEL: 'warn',
      },
      { command: [process.execPath, '--max-semi-space-size=4', 'scripts/start.js'] },
    );
    // Long enough for a build first when the sources changed since the last one.
    await waitUntilAnswering(`${base}/health`, service, 150_000);
    db = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
    rss.push(`at start ${rssMb()} MB`);
  }, 180_000);
  afterAll(async () => {
    console.log(`RSS of the API process: ${rss.join(', ')}`);
    await db?.destroy();
    await service?.stop();
  });

  const multipart = {
    type: 'multipart/form-data; boundary=b0undary',
    prefix:
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
    suffix: '\r\n--b0undary--\r\n',
  };
  const json = {
    type: 'application/json',
    prefix: '{"subject":"Hi","to":["ada@example.com"],"sender":"b@example.com","html":"',
    suffix: '"}',
  };

  const cases = [
    {
      name: 'POST /sender/send with Content-Length',
      path: '/sender/send',
      body: json,
      chunked: false,
      limit: 20 * MiB,
    },
    { name: 'POST /sender/send chunked', path: '/sender/send', body: json, chunked: true, limit: 20 * MiB },
    {
      name: 'POST /attachments with Content-Length',
      path: '/attachments',
      body: multipart,
      chunked: false,
      limit: 10 * MiB,
    },
    { name: 'POST /attachments chunked', path: '/attachments', body: multipart, chunked: true, limit: 10 * MiB },
  ];

  async function refused({ path, body, chunked, limit }: (typeof cases)[number], userId: string): Promise<Outcome> {
    // A declared length over the limit is refused before the limit is sent: the client pauses
    // short of it and still gets its answer. A chunked body is refused once the limit is passed:
    // the client pauses a little past it. Far from the 200 MiB either way.
    const pauseAfter = chunked ? limit + 8 * MiB : limit - 64 * 1024;
    const outcome = await streamBody(
      `${base}${path}`,
      { ...bearer(userId), 'Content-Type': body.type },
      body.prefix,
      body.suffix,
      chunked,
      pauseAfter,
    );
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toMatchObject({ type: 'about:blank', status: 413, requestId: expect.any(String) });
    expect(outcome.sentWhenAnswered).toBeLessThanOrEqual(pauseAfter);
    expect(outcome.connection).toBe('close');
    return outcome;
  }

  it('is refused with 413 before it is sent, and the memory is not kept', async () => {
    const userId = newUserId();
    for (const each of cases) {
      const outcome = await refused(each, userId);
      const after = rssMb();
      rss.push(
        `after ${each.name} ${after} MB (answered after ${(outcome.sentWhenAnswered / MiB).toFixed(1)} MiB sent)`,
      );
      expect(after).toBeLessThan(MAX_RSS_MB);
    }
    expect(await rowsOwnedBy(db, userId)).toMatchObject({ messages: 0, storedAttachments: 0 });
    // The service serves on.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  }, 60_000);

  it('reaches a client that is still sending, every time: the connection is not reset under it', async () => {
    // Whether such a client reads the answer before its next write fails is a race, unless the server lingers.
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      for (const each of cases) await refused(each, newUserId());
    }
  }, 120_000);
});
