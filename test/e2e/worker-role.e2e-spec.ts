// Every role can be probed and scraped (docs/configuration.md ROLE, docs/api.md#routes /health and /metrics): a real ROLE=worker
// process (`node src/main.ts`) on a PORT of its own, a real SMTP sink, and an in-process ROLE=api
// app that only queues, on a database of this file's own. Read with Node's fetch.
import { freePort } from '../../src/platform/free-port';
import { startWorkerProcess, waitUntilAnswering, WorkerProcess } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { SmtpSink } from '../support/smtp-sink';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitForStatus } from '../support/wait-for';

const TIMEOUT = 120_000;
/** A worker booting from the TypeScript sources (ts-node) takes a few seconds; this is generous. */
const DELIVERY_MS = 60_000;
const SENT_COUNTER = 'mailroom_deliveries_total{outcome="sent"}';

const sink = new SmtpSink();
let smtpUrl: string;
let databaseUrl: string;
let api: TestApp;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  smtpUrl = sink.url(await sink.start());
  databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
  api = await bootTestApp({ SMTP_URL: smtpUrl, DATABASE_URL: databaseUrl });
}, TIMEOUT);

afterAll(async () => {
  try {
    await worker?.stop();
    await api?.close();
    await sink.stop();
  } finally {
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}, TIMEOUT);

/** The value of one sample in a Prometheus text exposition, or undefined when it is absent. */
function sample(exposition: string, name: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('a ROLE=worker process', () => {
  it(
    'serves /health, /health/ready and /metrics on its PORT, counting what it delivered, and no API route',
    async () => {
      const port = await freePort();
      worker = await startWorkerProcess({
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtpUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      const base = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${base}/health/ready`, worker);
      const userId = newUserId('worker-role');

      const { body: message } = await api.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
      await waitForStatus(api.http, userId, message.id, 'sent', DELIVERY_MS);

      const live = await fetch(`${base}/health`);
      expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await fetch(`${base}/health/ready`);
      expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { status: 'ok' } });
      const scraped = await fetch(`${base}/metrics`);
      expect(scraped.headers.get('content-type')).toContain('text/plain');
      const exposition = await scraped.text();
      // The delivery was the worker's: its counter has it, the API process's has none.
      expect(sample(exposition, SENT_COUNTER)).toBe(1);
      expect(sample(exposition, 'mailroom_queue_waiting_jobs')).toBe(0);
      const apiExposition = (await api.http.get('/metrics').expect(200)).text;
      expect(sample(apiExposition, SENT_COUNTER)).toBeUndefined();
      expect(sample(apiExposition, 'mailroom_messages_accepted_total')).toBe(1);

      // No API route: a valid send, a list and the docs are 404 problems, and nothing is stored.
      const send = await fetch(`${base}/sender/send`, {
        method: 'POST',
        headers: { ...bearer(userId), 'Content-Type': 'application/json' },
        body: JSON.stringify(sendBody({ subject: 'Sent to a worker' })),
      });
      expect({ status: send.status, type: send.headers.get('content-type'), body: await send.json() }).toEqual({
        status: 404,
        type: expect.stringContaining('application/problem+json'),
        body: expect.objectContaining({ status: 404, title: 'Not Found', requestId: expect.any(String) }),
      });
      for (const path of ['/user/messages', '/docs', '/docs-json']) {
        expect([path, (await fetch(`${base}${path}`, { headers: bearer(userId) })).status]).toEqual([path, 404]);
      }
      const { body: listed } = await api.http.get('/user/messages').set(bearer(userId)).expect(200);
      expect(listed.messages.map((m: { id: string }) => m.id)).toEqual([message.id]);
      // It says where it answers, and offers no token (it serves no API).
      expect(worker.stdout()).toContain('Mailroom is ready (ROLE=worker)');
      expect(worker.stdout()).toMatch(new RegExp(`^ {2}Metrics +${base}/metrics$`, 'm'));
      expect(worker.stdout()).not.toMatch(/^ {2}(Token|API|Swagger UI) /m);
    },
    TIMEOUT,
  );
});
