// docs/delivery-and-deliverability.md#statuses: a message is sent at least once, and twice only when its worker dies between the SMTP
// server's acceptance and the record of it. These tests hold what a worker has started and not
// recorded to twice its slots and measure the window under a kill -9 (issue 12, item 4).
import { Client } from 'pg';
import { DeliveryHandOver } from '../../src/delivery/delivery-hand-over';
import { DeliveryRecorder } from '../../src/delivery/delivery-recorder';
import { exitOf, startWorkerProcess, WorkerProcess } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { SmtpSink } from '../support/smtp-sink';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitForStatus } from '../support/wait-for';

const TIMEOUT = 240_000;
const sink = new SmtpSink();
let smtpUrl: string;

beforeAll(async () => {
  smtpUrl = sink.url(await sink.start());
});
afterAll(() => sink.stop());

async function send(t: TestApp, userId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body.id;
}

/** Our message id, from the Message-ID header `<id@domain>`. */
const idOf = (messageId = '') => messageId.slice(1, messageId.indexOf('@'));

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it(
  'a slot starts its next delivery once the server has answered, but no more than twice as many as slots are started and unrecorded',
  async () => {
    const t = await bootTestApp({ SMTP_URL: smtpUrl }, { isolatedDatabase: true });
    const locker = new Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    let worker: TestApp | undefined;
    // In order, what the worker did: `begin <id>` as a delivery starts, `recorded <id>` once its
    // outcome is committed (observed, not changed; only the worker delivers).
    const events: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- each is called below with the instance's `this`
    const [execute, record] = [DeliveryHandOver.prototype.execute, DeliveryRecorder.prototype.record];
    jest.spyOn(DeliveryHandOver.prototype, 'execute').mockImplementation(function (
      this: DeliveryHandOver,
      job,
      message,
      replied,
    ) {
      events.push(`begin ${message.id}`);
      return execute.call(this, job, message, replied);
    });
    jest.spyOn(DeliveryRecorder.prototype, 'record').mockImplementation(async function (
      this: DeliveryRecorder,
      result,
    ) {
      await record.call(this, result);
      events.push(`recorded ${result.finished.messageId}`);
    });
    try {
      const userId = newUserId('window');
      const ids = [
        await send(t, userId, { sender: 'one@example.com' }),
        await send(t, userId, { sender: 'two@example.com' }),
        await send(t, userId, { sender: 'three@example.com' }),
      ];
      // The server holds its reply to whichever message comes first.
      let held: string | undefined;
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      sink.reply = async (mail) => {
        if (held !== undefined) return 'accept';
        held = idOf(mail.messageId);
        return released.then(() => 'accept' as const);
      };
      const begun = sink.mailFrom.length;
      // One slot (and one more delivery in flight): the worker claims all three, delivers one and
      // keeps the others in stock.
      worker = await bootTestApp({
        ROLE: 'worker',
        SMTP_URL: smtpUrl,
        WORKER_CONCURRENCY: '1',
        DATABASE_URL: t.config.databaseUrl!,
      });
      await until(() => held !== undefined, 'the first DATA');

      // The held message's commit will wait on this lock; then the server accepts it.
      const { rows } = await locker.query('SELECT pg_backend_pid() AS pid');
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM messages WHERE id = $1 FOR UPDATE', [held]);
      release();
      await until(async () => {
        const blocked = await t.db.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [rows[0].pid],
        );
        return blocked[0].n > 0;
      }, "the held message's commit to wait on the lock");
      // Accepted but unrecorded, the held message has freed its slot: the next delivery goes out.
      await until(() => sink.mailFrom.length - begun >= 2, 'the second DATA');
      await locker.query('ROLLBACK');

      for (const id of ids) await waitForStatus(t.http, userId, id, 'sent');
      expect(sink.mailFrom.slice(begun)).toHaveLength(3);
      const second = ids.find(
        (id) => id !== held && events.indexOf(`begin ${id}`) < events.indexOf(`recorded ${held}`),
      );
      const third = ids.find((id) => id !== held && id !== second)!;
      // The second began while the held one's outcome waited for its write; the third only once
      // that write was committed: one in the slot and one unrecorded are the most in flight.
      expect(second).toBeDefined();
      expect(events.indexOf(`begin ${third}`)).toBeGreaterThan(events.indexOf(`recorded ${held}`));
      expect(
        (await waitForStatus(t.http, userId, held!, 'sent')).statusHistory.map((e: { status: string }) => e.status),
      ).toEqual(['queued', 'sending', 'sent']);
    } finally {
      jest.restoreAllMocks();
      sink.reply = () => 'accept';
      await locker.end();
      await worker?.close();
      await t.close();
    }
  },
  TIMEOUT,
);

it(
  'a delivery that outlives its lease is sent again, and its late outcome is logged as not recorded',
  async () => {
    const api = await bootTestApp({ SMTP_URL: smtpUrl, DELIVERY_LEASE_SECONDS: '2' }, { isolatedDatabase: true });
    let worker: WorkerProcess | undefined;
    let release = () => {};
    try {
      const userId = newUserId('late');
      const released = new Promise<void>((resolve) => (release = resolve));
      sink.reply = (mail, attempt) =>
        mail.subject === 'Slow' && attempt === 1 ? released.then(() => 'accept' as const) : 'accept';
      const id = await send(api, userId, { subject: 'Slow' });
      worker = await startWorkerProcess({
        DATABASE_URL: api.config.databaseUrl!,
        SMTP_URL: smtpUrl,
        DELIVERY_LEASE_SECONDS: '2',
        NODE_ENV: 'production',
      });
      // The server holds its first reply past the lease: the job comes back and is sent again.
      await waitForStatus(api.http, userId, id, 'sent', 60_000);
      release();
      let late: Record<string, any> | undefined;
      await until(() => {
        late = worker!
          .stdout()
          .split('\n')
          .filter((line) => line.includes(id) && line.includes('"level":40'))
          .map((line) => JSON.parse(line))[0];
        return late !== undefined;
      }, 'the late outcome');
      expect(late).toMatchObject({
        context: 'Delivery',
        messageId: id,
        userId,
        attempt: 1,
        outcome: 'sent',
        detail: expect.stringMatching(/^250 /),
      });
      expect(late!.msg).toBe(`Delivery sent (attempt 1) but not recorded, the message had moved on: ${late!.detail}`);
      expect(sink.acceptedFor(id)).toHaveLength(2);
      const message = await waitForStatus(api.http, userId, id, 'sent');
      expect(message.statusHistory.map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'sending',
        'sent',
      ]);
    } finally {
      release();
      sink.reply = () => 'accept';
      await worker?.stop();
      await api.close();
    }
  },
  TIMEOUT,
);

describe('kill -9 of a worker in the middle of 2,000 messages (lease 10 s)', () => {
  const MESSAGES = 2000;
  const CONCURRENCY = 8;
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
  }, TIMEOUT);

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const recordTimes = (worker: WorkerProcess) =>
    worker
      .stdout()
      .split('\n')
      // The killed worker's last line may be cut short.
      .filter((line) => line.includes('"context":"Delivery"') && line.endsWith('}'))
      .map((line) => JSON.parse(line).recordedAfterMs as number);

  it(
    'loses nothing and sends at most twice as many messages twice as it has slots',
    async () => {
      const api = await bootTestApp(
        { SMTP_URL: smtpUrl, DELIVERY_LEASE_SECONDS: '10', RATE_LIMIT_PER_MINUTE: '100000' },
        { isolatedDatabase: true },
      );
      try {
        const userId = newUserId('kill');
        const ids: string[] = [];
        for (let next = 0; next < MESSAGES;) {
          const wave = Array.from({ length: Math.min(50, MESSAGES - next) }, (_, i) =>
            send(api, userId, { subject: `Kill ${next + i}` }),
          );
          next += wave.length;
          ids.push(...(await Promise.all(wave)));
        }
        const env = {
          DATABASE_URL: api.config.databaseUrl!,
          SMTP_URL: smtpUrl,
          WORKER_CONCURRENCY: String(CONCURRENCY),
          DELIVERY_LEASE_SECONDS: '10',
          NODE_ENV: 'production',
        };
        const before = sink.accepted.length;
        const a = await startWorkerProcess(env);
        workers.push(a);
        await sink.waitUntil(() => sink.accepted.length >= before + MESSAGES / 2, 120_000);
        a.child.kill('SIGKILL');
        expect(await exitOf(a.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
        const b = await startWorkerProcess(env);
        workers.push(b);
        await until(
          async () => {
            const [{ sent }] = await api.db.query(
              `SELECT count(*)::int AS sent FROM messages WHERE id = ANY($1) AND status = 'sent'`,
              [ids],
            );
            return sent === MESSAGES;
          },
          'every message to be sent',
          120_000,
        ).catch(async (error: Error) => {
          const unsent = await api.db.query(
            `SELECT m.id, m.status, j.state AS job, j.retry_count FROM messages m LEFT JOIN pgboss.job j ON j.data->>'messageId' = m.id::text
           WHERE m.id = ANY($1) AND m.status <> 'sent'`,
            [ids],
          );
          throw new Error(`${error.message}: ${JSON.stringify(unsent)}\n${b.tail()}`);
        });

        const copies = new Map(ids.map((id) => [id, 0]));
        // Of this test's messages only: the sink also took the other tests' mail.
        for (const id of sink.accepted.map((mail) => idOf(mail.parsed.messageId)))
          if (copies.has(id)) copies.set(id, copies.get(id)! + 1);
        const twice = [...copies].filter(([, n]) => n > 1).map(([id]) => id);
        const times = [...recordTimes(a), ...recordTimes(b)].sort((x, y) => x - y);
        process.stdout.write(
          `\nkill -9 at ${MESSAGES / 2} of ${MESSAGES}: ${twice.length} sent twice; reply → commit over ${times.length} outcomes: ` +
            `p50 ${percentile(times, 50)} ms, p99 ${percentile(times, 99)} ms, max ${times.at(-1)} ms\n`,
        );
        expect([...copies].filter(([, n]) => n === 0)).toEqual([]);
        // At most twice as many deliveries as slots are started and unrecorded (DeliveryWorker).
        expect(twice.length).toBeLessThanOrEqual(2 * CONCURRENCY);
        // A copy sent twice is A's job taken back after its lease: sending, sending, sent.
        const histories: { id: string; statuses: string[] }[] = await api.db.query(
          `SELECT message_id AS id, array_agg(status ORDER BY id) AS statuses FROM message_status_events WHERE message_id = ANY($1) GROUP BY message_id`,
          [twice],
        );
        expect(histories.map((h) => h.statuses)).toEqual(twice.map(() => ['queued', 'sending', 'sending', 'sent']));
      } finally {
        await api.close();
      }
    },
    TIMEOUT,
  );
});
