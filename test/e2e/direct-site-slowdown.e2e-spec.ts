// Site shaping across worker processes (docs/delivery-and-deliverability.md#direct-delivery): two
// real ROLE=worker processes (`node dist/src/main.js`: run `npm run build` first) with
// SMTP_URL=direct deliver to three sites, each one MX host on a loopback address of its own named
// by a real DNS server. Site S answers 421 "too many messages" once it has taken a few; A and B
// accept. Every limit is the database's: what each SMTP server saw (its connections' open and
// close times) is checked against the delivery_sites row of S.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { freePort } from '../../src/platform/free-port';
import { PROJECT_ROOT, ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { TestMxHosts } from '../support/mx-hosts';
import type { SmtpSink } from '../support/smtp-sink';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitFor, waitWhileChanging } from '../support/wait-for';

const TIMEOUT = 10 * 60_000;
const LIMIT = 4;
/** S takes this many messages, then answers 421 until the test has seen it paused. */
const S_ACCEPTS_FIRST = 4;
/** The pause S's reply asks for: long enough for A and B to be seen at their limit within it on a busy machine. */
const PAUSE_SECONDS = 20;
const TOO_MANY = {
  code: 421,
  message: `4.7.0 Too many messages from your address, try again in ${PAUSE_SECONDS} seconds`,
};
/**
 * A connection granted before the pause was written may still be opening once the test has seen
 * the pause: a new connection, or a message taken, after this long past that is the pause not held.
 */
const GRANTED_BEFORE_MS = 2_000;
const MAIN = join(PROJECT_ROOT, 'dist/src/main.js');
/** Messages to A, then to B, while they hold deliveries: more than one worker claims with its slots held. */
const HELD_PHASE = 20;

type Connection = { openedAt: number; closedAt?: number };

/** The most connections open at once among `connections` (a close at the instant of an open counts first). */
function peakOf(connections: Connection[]): number {
  const events = connections.flatMap((c) => [
    { at: c.openedAt, delta: 1 },
    ...(c.closedAt === undefined ? [] : [{ at: c.closedAt, delta: -1 }]),
  ]);
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let peak = 0;
  for (const { delta } of events) peak = Math.max(peak, (open += delta));
  return peak;
}

describe('a site answering 421 is slowed across two worker processes while the others keep their pace', () => {
  const mx = new TestMxHosts();
  const sinks = {} as Record<'s' | 'a' | 'b', SmtpSink>;
  const workers: ServiceProcess[] = [];
  const ports: number[] = [];
  /** When S accepted each message. */
  const sAcceptedAt: number[] = [];
  let databaseUrl: string;
  let database: Pool;
  let api: TestApp;
  /** S answers 421 to every connection and DATA while this holds; first421At: when it first did. */
  let sRefusing = false;
  let first421At: number | undefined;
  /** A and B each hold DATA until LIMIT are held at once (then answer them all), while this holds. */
  const gate = {
    holding: false,
    held: { a: [] as (() => void)[], b: [] as (() => void)[] },
    fullAt: {} as Record<'a' | 'b', number>,
  };

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build before this suite`);
    await mx.start();
    sinks.s = await mx.host('mx.slow.test');
    sinks.a = await mx.host('mx.a.test');
    sinks.b = await mx.host('mx.b.test');
    for (const name of ['slow', 'a', 'b'])
      mx.dns.publishMx(`${name}.test`, { preference: 10, exchange: `mx.${name}.test` });
    sinks.s.reply = () => {
      if (sinks.s.accepted.length >= S_ACCEPTS_FIRST && first421At === undefined) {
        sRefusing = true;
        first421At = Date.now();
      }
      if (sRefusing) return TOO_MANY;
      sAcceptedAt.push(Date.now());
      return 'accept';
    };
    // While refusing, S turns new connections away too, as a rate-limiting server does.
    Object.defineProperty(sinks.s, 'greetingReply', { get: () => (sRefusing ? TOO_MANY : undefined) });
    for (const name of ['a', 'b'] as const)
      sinks[name].reply = () => {
        if (!gate.holding || gate.fullAt[name] !== undefined) return 'accept';
        return new Promise<'accept'>((resolve) => {
          const held = gate.held[name];
          held.push(() => resolve('accept'));
          if (held.length === LIMIT) {
            gate.fullAt[name] = Date.now();
            for (const release of held.splice(0)) release();
          }
        });
      };
    databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    database = new Pool({ connectionString: databaseUrl, max: 2 });
    api = await bootTestApp({ DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '100000' });
    const env = {
      DATABASE_URL: databaseUrl,
      ...mx.directDeliveryEnv(),
      DELIVERY_SITE_CONNECTIONS: String(LIMIT),
      // One short of a site's limit each: A and B reach LIMIT held at once only with both workers'
      // deliveries there together, and both workers' slots together (6) are more than a site's
      // limit, so the limits checked are the database's across the two processes. (With 10 slots
      // each, one worker could take every message, as it did on CI, and prove nothing across two.)
      WORKER_CONCURRENCY: String(LIMIT - 1),
      DELIVERY_RETRY_DELAYS: Array(20).fill('1').join(','),
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const worker = startServiceProcess(
        { ...env, ROLE: 'worker', HOST: '127.0.0.1', PORT: String(port) },
        { command: [process.execPath, MAIN] },
      );
      workers.push(worker);
      ports.push(port);
    }
    await Promise.all(
      workers.map((worker, i) => waitUntilAnswering(`http://127.0.0.1:${ports[i]}/health/ready`, worker)),
    );
  }, TIMEOUT);

  afterAll(async () => {
    for (const release of [...gate.held.a, ...gate.held.b]) release();
    for (const worker of workers) await worker.stop();
    await api?.close();
    await database?.end();
    await mx.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  }, TIMEOUT);

  const userId = newUserId('slowdown');
  const messageIds: string[] = [];
  /** Queues `count` messages, each to one recipient of `domain`, through the API. */
  async function queue(domain: string, count: number): Promise<void> {
    const messages = Array.from({ length: count }, (_, i) => sendBody({ to: [`r${messageIds.length + i}@${domain}`] }));
    const { body } = await api.http.post('/sender/send/batch').set(bearer(userId)).send({ messages }).expect(201);
    messageIds.push(...body.messages.map((m: { id: string }) => m.id));
  }
  const sitePace = async () =>
    (
      await database.query(
        `SELECT concurrency, connection_limit AS "limit", paused_until AS "pausedUntil" FROM delivery_sites WHERE site = 'mx.slow.test'`,
      )
    ).rows[0] as { concurrency: number; limit: number; pausedUntil: Date | null } | undefined;
  const connectionsOf = async (port: number): Promise<number> => {
    const exposition = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return exposition
      .split('\n')
      .filter((line) => line.startsWith('mailroom_direct_connections_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  };

  it(
    "halves S's connections and pauses it, while A and B are delivered at their full limit meanwhile, no site ever over its limit",
    async () => {
      await queue('slow.test', 8);
      await queue('a.test', 8);
      await queue('b.test', 8);

      // S's 421 is seen by the worker that got it, and written to the site's row for both.
      const slowed = await waitWhileChanging(sitePace, (pace) => pace?.pausedUntil != null, 'S to be paused', 120_000);
      // S takes mail again; the workers are to keep away from it until the pause ends all the same.
      sRefusing = false;
      const pauseSeenAt = Date.now();
      // A and B now get messages that they hold until LIMIT connections deliver at once, one site
      // after the other. Each site gets more than one worker can claim while its slots are held
      // (WORKER_CONCURRENCY running and a stock of 4 × WORKER_CONCURRENCY: 15), so the worker that
      // fetched first leaves some to the other.
      // Not before A and B have taken their first 8: held, those would take the slots.
      await waitFor(
        () => sinks.a.accepted.length >= 8 && sinks.b.accepted.length >= 8,
        'A and B to take their first messages',
        120_000,
      );
      gate.holding = true;
      for (const site of ['a', 'b'] as const) {
        await queue(`${site}.test`, HELD_PHASE);
        await waitFor(
          () => gate.fullAt[site] !== undefined,
          `${site.toUpperCase()} to hold LIMIT deliveries at once`,
          120_000,
        );
      }
      const total = messageIds.length;
      await waitWhileChanging(
        async () =>
          (await api.http.get('/user/messages?statuses=sent&take=1').set(bearer(userId)).expect(200)).body
            .total as number,
        (sent) => sent === total,
        `${total} messages sent`,
        // S's pause is a stretch with nothing sent to it.
        (PAUSE_SECONDS + 60) * 1000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${workers.map((w) => w.tail()).join('\n---\n')}`);
      });

      // The 421s S gave until the test saw the pause were one episode: halved once, the pause as long as the last asked.
      const paced = await sitePace();
      expect(paced).toEqual({ concurrency: LIMIT / 2, limit: LIMIT, pausedUntil: expect.any(Date) });
      const pausedUntil = paced!.pausedUntil!.getTime();
      expect(pausedUntil).toBeGreaterThanOrEqual(slowed!.pausedUntil!.getTime());
      // Paused: once the pause was written, S saw no new connection until it ended, and no
      // connection already open carried a message to it meanwhile; a connection granted before the
      // pause and opened as the test saw it carried one message at most.
      const s = sinks.s.connectionLog;
      const heldFrom = pauseSeenAt + GRANTED_BEFORE_MS;
      expect(pausedUntil).toBeGreaterThan(heldFrom);
      expect(s.filter((c) => c.openedAt > heldFrom && c.openedAt < pausedUntil)).toEqual([]);
      const duringPause = sinks.s.sessions.filter((m) => m.at > pauseSeenAt && m.at < pausedUntil);
      const openedAt = new Map(s.map((c) => [c.id, c.openedAt]));
      for (const { sessionId } of duringPause) {
        expect(openedAt.get(sessionId)).toBeGreaterThan(pauseSeenAt);
        expect(duringPause.filter((m) => m.sessionId === sessionId)).toHaveLength(1);
      }
      // After the pause, S has the halved allowance: at most LIMIT / 2 connections at once.
      const afterPause = s.filter((c) => c.openedAt >= pausedUntil);
      expect(afterPause.length).toBeGreaterThan(0);
      expect(peakOf(afterPause)).toBeLessThanOrEqual(LIMIT / 2);
      // A and B went on at their full limit during S's pause.
      for (const fullAt of [gate.fullAt.a, gate.fullAt.b]) {
        expect(fullAt).toBeGreaterThan(first421At!);
        expect(fullAt).toBeLessThan(pausedUntil);
      }
      // No site ever had more than its limit open at once, both workers' connections together.
      for (const sink of Object.values(sinks)) {
        expect(sink.peakOpen).toBeLessThanOrEqual(LIMIT);
        expect(peakOf(sink.connectionLog)).toBeLessThanOrEqual(LIMIT);
      }
      expect(peakOf(sinks.a.connectionLog)).toBe(LIMIT);
      expect(peakOf(sinks.b.connectionLog)).toBe(LIMIT);
      // Every message once, and both workers delivered.
      const delivered = Object.values(sinks).flatMap((sink) => sink.accepted.map((m) => m.parsed.messageId));
      expect(delivered).toHaveLength(total);
      expect(new Set(delivered).size).toBe(total);
      for (const port of ports) expect(await connectionsOf(port)).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});
