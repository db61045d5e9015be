// Delivery across worker processes (docs/configuration.md ROLE, docs/delivery-and-deliverability.md#statuses "at least once, even when a worker dies
// mid-delivery", docs/scaling.md#shutdown: SIGTERM drains): real `node src/main.ts` workers, a real SMTP sink in this
// process, and an in-process ROLE=api app that only queues, all on a database of this file's own.
import { exitOf, startWorkerProcess, WorkerProcess } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { SinkReply, SmtpSink } from '../support/smtp-sink';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitForStatus } from '../support/wait-for';

const TIMEOUT = 120_000;
const LEASE_SECONDS = 2;
/** A worker booting from the TypeScript sources (ts-node) takes a few seconds; this is generous. */
const DELIVERY_MS = 60_000;
const SHUTDOWN_MS = 30_000;

/** What a well-behaved SMTP server answers to a DATA whose client is gone (see test 1). */
const CLIENT_GONE: SinkReply = { code: 451, message: '4.4.2 Client went away before the reply' };

const sink = new SmtpSink();
let sinkUrl: string;
let databaseUrl: string;
let api: TestApp;
const workers: WorkerProcess[] = [];
/** Replies the sink is holding open, by subject; released in afterEach whatever happened. */
const held = new Map<string, (reply: SinkReply) => void>();

beforeAll(async () => {
  sinkUrl = sink.url(await sink.start());
  databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
  // The API process, on a database of this suite's own, runs ROLE=api, so it only queues. It gets the
  // workers' lease as well: every process sets the pg-boss queue's options as it starts
  // (DeliveryQueue.options in src/platform/queue/delivery-queue.ts, applied by JobQueue.ensureQueue in
  // src/platform/queue/job-queue.ts), and jobs take the lease when inserted.
  api = await bootTestApp({
    SMTP_URL: sinkUrl,
    DATABASE_URL: databaseUrl,
    DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
  });
}, TIMEOUT);

afterEach(async () => {
  for (const release of held.values()) release(CLIENT_GONE);
  held.clear();
  sink.reply = () => 'accept';
  for (const worker of workers.splice(0)) await worker.stop();
}, TIMEOUT);

afterAll(async () => {
  try {
    await api?.close();
    await sink.stop();
  } finally {
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}, TIMEOUT);

async function spawnWorker(extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const worker = await startWorkerProcess({
    DATABASE_URL: databaseUrl,
    SMTP_URL: sinkUrl,
    DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
    ...extra,
  });
  workers.push(worker);
  return worker;
}

async function send(userId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const { body } = await api.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201);
  expect(body.status).toBe('queued');
  return body.id;
}

async function getMessage(userId: string, id: string) {
  return (await api.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200)).body;
}

/** waitForStatus, with what the workers said when it times out. */
async function waitForSent(userId: string, id: string, ...watched: WorkerProcess[]) {
  try {
    return await waitForStatus(api.http, userId, id, 'sent', DELIVERY_MS);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${watched.map((w) => w.tail()).join('\n---\n')}`, {
      cause: error,
    });
  }
}

async function waitForDataOf(id: string, attempts: number, ...watched: WorkerProcess[]): Promise<void> {
  try {
    await sink.waitUntil(() => sink.attemptsFor(id) >= attempts, DELIVERY_MS);
  } catch (error) {
    throw new Error(
      `${(error as Error).message} (DATA #${attempts} of ${id})\n${watched.map((w) => w.tail()).join('\n---\n')}`,
      { cause: error },
    );
  }
}

/**
 * Holds the sink's reply to the first DATA of each message whose subject is in `subjects` until
 * the test releases it (by subject). Subjects, not ids: the hold must be in place before the
 * message is sent, and a worker may reach DATA before the test has read the id from the answer.
 */
function holdFirstDataOf(subjects: Set<string>): void {
  sink.reply = (mail, attempt) => {
    if (!subjects.has(mail.subject ?? '') || attempt !== 1) return 'accept';
    return new Promise<SinkReply>((resolve) => held.set(mail.subject!, resolve));
  };
}

const statuses = (message: { statusHistory: { status: string }[] }) => message.statusHistory.map((e) => e.status);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker processes (ROLE=worker, node src/main.ts)', () => {
  it(
    'a worker killed with SIGKILL mid-delivery loses nothing and the message is accepted exactly once',
    async () => {
      const userId = newUserId('crash');
      // Two slots, so that the test knows exactly which jobs are in flight when the worker dies.
      const a = await spawnWorker({ WORKER_CONCURRENCY: '2' });

      // Delivered by A before anything goes wrong.
      const early = [await send(userId), await send(userId), await send(userId)];
      for (const id of early) await waitForSent(userId, id, a);

      // In flight at the kill: the reply to the first DATA of each is held open.
      const subjects = { target: `In flight ${userId}`, second: `Also in flight ${userId}` };
      holdFirstDataOf(new Set(Object.values(subjects)));
      const target = await send(userId, { subject: subjects.target });
      const second = await send(userId, { subject: subjects.second });
      await waitForDataOf(target, 1, a);
      await waitForDataOf(second, 1, a);
      // Still queued at the kill: both of A's slots are taken, so A does not fetch these.
      const late = [await send(userId), await send(userId)];
      await sleep(1000);
      for (const id of late) expect((await getMessage(userId, id)).status).toBe('queued');
      expect(late.map((id) => sink.attemptsFor(id))).toEqual([0, 0]);

      a.child.kill('SIGKILL');
      expect(await exitOf(a.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });

      // The SMTP client is gone: the held attempts must not count as accepted. SmtpSink records
      // an 'accept' whether or not its client is still connected (tried: a client destroyed
      // while its DATA reply was held still lands in `accepted`), so the held replies answer as
      // a well-behaved server would, with a temporary error that no client will ever read.
      for (const subject of Object.values(subjects)) {
        expect(held.has(subject)).toBe(true);
        held.get(subject)!(CLIENT_GONE);
        held.delete(subject);
      }
      await sleep(200);
      expect(sink.acceptedFor(target)).toHaveLength(0);
      expect(sink.acceptedFor(second)).toHaveLength(0);
      // Nothing was lost or moved on: the database still says they are being sent.
      expect((await getMessage(userId, target)).status).toBe('sending');
      expect((await getMessage(userId, second)).status).toBe('sending');

      const b = await spawnWorker();
      const delivered = await waitForSent(userId, target, a, b);
      const all = [...early, target, second, ...late];
      const final = new Map<string, any>();
      for (const id of all) final.set(id, await waitForSent(userId, id, b));
      // Longer than a lease, so that a second copy of anything would have time to arrive.
      await sleep(LEASE_SECONDS * 1000 + 1500);

      expect(statuses(delivered)).toEqual(['queued', 'sending', 'sending', 'sent']);
      // The retry is A's job coming back after its lease, not a new attempt.
      const [, firstSending, secondSending] = delivered.statusHistory;
      expect(Date.parse(secondSending.at) - Date.parse(firstSending.at)).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000);
      expect(delivered.statusHistory[3].detail).toMatch(/^250 /);
      const copies = sink.acceptedFor(target);
      expect(copies).toHaveLength(1);
      expect(copies[0].parsed.messageId).toBe(`<${target}@example.com>`);
      expect(copies[0].parsed.subject).toBe(subjects.target);
      expect(sink.attemptsFor(target)).toBe(2);

      expect(Object.fromEntries(all.map((id) => [id, sink.acceptedFor(id).length]))).toEqual(
        Object.fromEntries(all.map((id) => [id, 1])),
      );
      expect(Object.fromEntries(all.map((id) => [id, statuses(final.get(id))]))).toEqual({
        ...Object.fromEntries(early.map((id) => [id, ['queued', 'sending', 'sent']])),
        [target]: ['queued', 'sending', 'sending', 'sent'],
        [second]: ['queued', 'sending', 'sending', 'sent'],
        ...Object.fromEntries(late.map((id) => [id, ['queued', 'sending', 'sent']])),
      });
      expect(Object.fromEntries(all.map((id) => [id, sink.attemptsFor(id)]))).toEqual({
        ...Object.fromEntries(all.map((id) => [id, 1])),
        [target]: 2,
        [second]: 2,
      });
      // The status history is what the database says now, not a passing moment.
      expect(statuses(await getMessage(userId, target))).toEqual(['queued', 'sending', 'sending', 'sent']);

      b.child.kill('SIGTERM');
      const exit = await exitOf(b.child, SHUTDOWN_MS);
      expect({ exit, output: exit?.code === 0 ? '' : b.tail() }).toEqual({
        exit: { code: 0, signal: null },
        output: '',
      });
    },
    TIMEOUT,
  );

  it(
    'SIGTERM drains: a delivery in flight is finished before the worker exits',
    async () => {
      const userId = newUserId('drain');
      const worker = await spawnWorker();
      let releasedAt: number | undefined;
      sink.reply = (_mail, attempt) =>
        attempt === 1
          ? new Promise<SinkReply>((resolve) =>
              setTimeout(() => {
                releasedAt = Date.now();
                resolve('accept');
              }, 2000),
            )
          : 'accept';

      const id = await send(userId, { subject: 'Drain me' });
      await waitForDataOf(id, 1, worker);
      const termAt = Date.now();
      worker.child.kill('SIGTERM');
      const exit = await exitOf(worker.child, SHUTDOWN_MS);

      expect({ exit, output: exit?.code === 0 ? '' : worker.tail() }).toEqual({
        exit: { code: 0, signal: null },
        output: '',
      });
      expect(worker.exitedAt! - termAt).toBeLessThan(SHUTDOWN_MS);
      // SIGTERM went out while the reply was held, and the process waited for it.
      expect(releasedAt).toBeDefined();
      expect(termAt).toBeLessThan(releasedAt!);
      expect(worker.exitedAt).toBeGreaterThanOrEqual(releasedAt!);
      // Read once, not polled: the worker recorded the outcome before it exited.
      const message = await getMessage(userId, id);
      expect(message.status).toBe('sent');
      expect(statuses(message)).toEqual(['queued', 'sending', 'sent']);
      expect(sink.acceptedFor(id)).toHaveLength(1);
      expect(sink.attemptsFor(id)).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'ROLE=api does not deliver: its jobs wait for a worker, which delivers each once',
    async () => {
      const userId = newUserId('roles');
      const ids = [await send(userId), await send(userId)];
      // No worker runs: the API process only queued them.
      await sleep(3000);
      for (const id of ids) expect((await getMessage(userId, id)).status).toBe('queued');
      expect(ids.map((id) => sink.attemptsFor(id))).toEqual([0, 0]);
      const jobs: { id: string; state: string }[] = await api.db.query(
        `SELECT data->>'messageId' AS id, state FROM pgboss.job WHERE data->>'messageId' = ANY($1)`,
        [ids],
      );
      expect(jobs.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [...ids].sort((x, y) => x.localeCompare(y)).map((id) => ({ id, state: 'created' })),
      );

      // (What a worker serves on its PORT: test/worker-role.e2e-spec.ts.)
      const worker = await spawnWorker();
      for (const id of ids) await waitForSent(userId, id, worker);

      expect(worker.child.exitCode).toBeNull();
      // It logs (start-up included).
      expect(worker.stdout()).toContain('Nest application successfully started');
      expect(ids.map((id) => sink.acceptedFor(id).length)).toEqual([1, 1]);
    },
    TIMEOUT,
  );
});
