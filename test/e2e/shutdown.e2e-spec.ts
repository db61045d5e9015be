// SIGTERM to an API process under kept-alive load (docs/scaling.md): a real `node src/main.ts` child,
// 16 clients on Node's own kept-alive http.Agent, and the database as the witness of what was
// taken. Nothing may be stored that its client was not told about, and nothing told that is not.
import { Agent, request } from 'node:http';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/platform/free-port';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { ENTITIES } from '../../src/entities';
import {
  exitOf,
  ServiceProcess,
  startServiceProcess,
  startWorkerProcess,
  waitUntilAnswering,
} from '../support/child-processes';
import { sendBody } from '../support/factories';
import { bootTestApp } from '../support/test-app';
import { bearer, newUserId, tokenFor } from '../support/tokens';
import { waitFor } from '../support/wait-for';

const TIMEOUT = 120_000;
const CLIENTS = 16;
/** Answers each client has had before the signal: every kept-alive socket is in use by then. */
const WARM_ANSWERS = 3;
const EXIT_WITHIN_MS = 20_000;

interface Outcome {
  subject: string;
  sentAt: number;
  answeredAt?: number;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: any;
  /** The error of a request that got no complete answer. */
  error?: string;
}

/** One POST on the agent's sockets; resolves with the whole answer or the error, never rejects. */
function post(port: number, agent: Agent, token: string, subject: string): Promise<Outcome> {
  const outcome: Outcome = { subject, sentAt: Date.now() };
  const payload = JSON.stringify(sendBody({ subject }));
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: '/sender/send',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ ...outcome, error: `response ${error.code ?? error.message}` }),
        );
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // kept as text: the assertion shows it
          }
          resolve({ ...outcome, answeredAt: Date.now(), status: res.statusCode, headers: res.headers, body });
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
    req.end(payload);
  });
}

let service: ServiceProcess | undefined;
let db: DataSource;

beforeAll(async () => {
  db = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
});

afterEach(async () => {
  await service?.stop();
  service = undefined;
}, TIMEOUT);

afterAll(async () => {
  await db?.destroy();
});

describe('SIGTERM to an API process under kept-alive load', () => {
  it(
    'refuses new requests at once with a 503, answers those in flight, stores only what it answered 201, and exits 0 within 20 s',
    async () => {
      const port = await freePort();
      service = startServiceProcess({
        ROLE: 'api',
        DATABASE_URL: process.env.TEST_DATABASE_URL!,
        PORT: String(port),
        HOST: '127.0.0.1',
        RATE_LIMIT_PER_MINUTE: '1000000',
        LOG_LEVEL: 'warn',
      });
      await waitUntilAnswering(`http://127.0.0.1:${port}/health/ready`, service);
      const userId = newUserId('shutdown');
      const token = tokenFor(userId);
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      const outcomes: Outcome[] = [];
      const answersOf = new Array<number>(CLIENTS).fill(0);
      let warm: () => void;
      const allWarm = new Promise<void>((resolve) => (warm = resolve));

      // Each client sends until it is refused (a 503, or no connection) or gets no answer.
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; ; n++) {
          const outcome = await post(port, agent, token, `shutdown c${client} #${n}`);
          outcomes.push(outcome);
          if (outcome.status !== 201) return;
          if (++answersOf[client] === WARM_ANSWERS && answersOf.every((count) => count >= WARM_ANSWERS)) warm();
        }
      });
      await allWarm;
      const sigtermAt = Date.now();
      service.child.kill('SIGTERM');
      const exit = await exitOf(service.child, 2 * EXIT_WITHIN_MS);
      await Promise.all(clients);
      agent.destroy();

      expect({ exit, output: exit?.code === 0 ? '' : service.tail() }).toEqual({
        exit: { code: 0, signal: null },
        output: '',
      });
      expect(service.exitedAt! - sigtermAt).toBeLessThan(EXIT_WITHIN_MS);
      // Every request got a whole answer, or was refused a connection (never sent).
      const unanswered = outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNREFUSED');
      expect(unanswered).toEqual([]);
      const answered = outcomes.filter((o) => o.status !== undefined);
      expect(answered.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
      const created = answered.filter((o) => o.status === 201);
      for (const o of created)
        expect(o.body).toMatchObject({ id: expect.any(String), subject: o.subject, status: 'queued' });
      const refused = answered.filter((o) => o.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const o of refused) {
        expect(o.headers).toMatchObject({
          'content-type': expect.stringContaining('application/problem+json'),
          connection: 'close',
        });
        expect(o.body).toMatchObject({ status: 503, title: 'Service Unavailable', requestId: expect.any(String) });
      }
      // Once one refusal was seen the process was draining: nothing sent later was taken.
      const firstRefusalAt = Math.min(...refused.map((o) => o.answeredAt!));
      expect(created.filter((o) => o.sentAt > firstRefusalAt)).toEqual([]);
      // The database holds exactly the messages answered 201.
      const stored: { id: string; subject: string }[] = await db.query(
        'SELECT id, subject FROM messages WHERE user_id = $1',
        [userId],
      );
      const bySubject = (a: { subject: string }, b: { subject: string }) => a.subject.localeCompare(b.subject);
      expect(stored.sort(bySubject)).toEqual(
        created.map((o) => ({ id: o.body.id, subject: o.subject })).sort(bySubject),
      );
      expect(created.length).toBeGreaterThanOrEqual(CLIENTS * WARM_ANSWERS);
    },
    TIMEOUT,
  );
});

describe('SIGTERM to a worker whose HTTP side lingers', () => {
  it(
    'stops taking jobs at the signal, not after the HTTP drain: a message queued meanwhile stays queued',
    async () => {
      const api = await bootTestApp({}, { isolatedDatabase: true });
      try {
        const port = await freePort();
        service = await startWorkerProcess({ DATABASE_URL: api.config.databaseUrl!, PORT: String(port) });
        const base = `http://127.0.0.1:${port}`;
        await waitUntilAnswering(`${base}/health/ready`, service);
        // An idle kept-alive connection (a scraper's) holds the HTTP drain for its linger.
        const agent = new Agent({ keepAlive: true });
        await new Promise<void>((resolve, reject) =>
          request(`${base}/metrics`, { agent }, (res) => res.resume().on('end', resolve))
            .on('error', reject)
            .end(),
        );

        service.child.kill('SIGTERM');
        const worker = service;
        await waitFor(() => worker.stdout().includes('SIGTERM: shutting down'), 'the worker to hear SIGTERM');
        const userId = newUserId('late');
        const { body } = await api.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
        const exit = await exitOf(service.child, 2 * EXIT_WITHIN_MS);
        agent.destroy();

        expect({ exit, output: exit?.code === 0 ? '' : service.tail() }).toEqual({
          exit: { code: 0, signal: null },
          output: '',
        });
        const [message] = await api.db.query('SELECT status FROM messages WHERE id = $1', [body.id]);
        expect(message).toEqual({ status: 'queued' });
      } finally {
        await api.close();
      }
    },
    TIMEOUT,
  );
});
