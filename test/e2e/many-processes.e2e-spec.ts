// Many processes, one database (docs/configuration.md ROLE, docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md#webhooks, docs/scaling.md): two ROLE=api and two ROLE=worker
// processes, each a real `node src/main.ts`, on one PostgreSQL database of this file's own (on the
// run's server: DATABASE_URL's when it is set, else the embedded one). Each worker relays through a
// real SMTP sink of its own, so that the test knows which worker handed over which copy; webhooks go
// to a real HTTP receiver (test/support/many-processes.ts starts them). Read with Node's fetch and the pg client.
import { DELIVERY_QUEUE } from '../../src/platform/queue/delivery-queue';
import { WEBHOOK_QUEUE } from '../../src/platform/queue/webhook-queue';
import { exitOf } from '../support/child-processes';
import { sendBody } from '../support/factories';
import {
  acceptAll,
  apis,
  call,
  CONCURRENCY,
  copies,
  copiesBySink,
  cpuSnapshot,
  held,
  LEASE_SECONDS,
  metric,
  receiver,
  sinks,
  statuses,
  stopSamplingConnections,
  TAKEOVER_STALL_MS,
  TIMEOUT,
  useManyProcesses,
  waitForJobs,
  waitUntilSent,
  workers,
} from '../support/many-processes';
import { ProcessResources } from '../support/process-resources';
import { SinkReply } from '../support/smtp-sink';
import { newUserId } from '../support/tokens';
import { waitWhileChanging } from '../support/wait-for';
import { distinctEvents, header, verifiesRequest } from '../support/webhooks/signatures';

const SENDS = 200;
/** Sends through each API: single sends, then batches of BATCH messages. */
const BATCHES_PER_API = 2;
const BATCH = 10;

useManyProcesses();

describe('two API and two worker processes on one PostgreSQL', () => {
  it(
    'deliver each send once whichever API took it, agree on lists, and post each status change once',
    async () => {
      const userId = newUserId('many');
      const path = `/hooks/${userId}`;
      const body = (i: number) =>
        sendBody({ subject: `Many ${i}`, to: [`r${i}@example.com`], webhook: { url: receiver.url(path), status: [] } });
      const singles = SENDS - 2 * BATCHES_PER_API * BATCH;
      const requests = [
        ...Array.from({ length: singles }, (_, i) => ({ api: i % 2, messages: [body(i)] })),
        ...Array.from({ length: 2 * BATCHES_PER_API }, (_, b) => ({
          api: b % 2,
          messages: Array.from({ length: BATCH }, (_, j) => body(singles + b * BATCH + j)),
        })),
      ];

      const cpuBefore = await cpuSnapshot();
      const startedAt = Date.now();
      const ids = await acceptAll(requests, userId);
      const acceptedAt = Date.now();
      await waitUntilSent(1, userId, SENDS);
      const sentAt = Date.now();
      const cpu = ProcessResources.cpuBetween(cpuBefore, await cpuSnapshot());
      process.stdout.write(
        `many-processes: ${SENDS} messages accepted by 2 APIs in ${acceptedAt - startedAt} ms (${Math.round((SENDS * 1000) / (acceptedAt - startedAt))}/s), ` +
          `all sent by 2 workers ${sentAt - startedAt} ms after the first request (${Math.round((SENDS * 1000) / (sentAt - startedAt))}/s end to end); CPU s meanwhile: ${cpu}\n`,
      );
      // No job is left that could relay a second copy.
      await waitForJobs(DELIVERY_QUEUE);

      // (1) Every send was relayed exactly once, and both workers took a share.
      expect(new Set(ids).size).toBe(SENDS);
      expect(Object.fromEntries(ids.map((id) => [id, copies(id)]))).toEqual(
        Object.fromEntries(ids.map((id) => [id, 1])),
      );
      expect(
        sinks
          .map((sink) => sink.accepted.filter((m) => m.parsed.subject?.startsWith('Many ')).length)
          .reduce((a, b) => a + b),
      ).toBe(SENDS);
      expect(sinks.map((sink) => sink.accepted.length > 0)).toEqual([true, true]);
      for (const [i, id] of ids.entries()) {
        const [copy] = sinks.flatMap((sink) => sink.acceptedFor(`<${id}@`));
        expect([id, copy.parsed.subject, copy.to]).toEqual([id, `Many ${i}`, [`r${i}@example.com`]]);
      }
      // Each API process accepted its half.
      expect(await Promise.all(apis.map(({ base }) => metric(base, 'mailroom_messages_accepted_total')))).toEqual([
        SENDS / 2,
        SENDS / 2,
      ]);

      // (2) Both APIs list the same messages, every one sent with the same history.
      const pages = await Promise.all(
        [0, 1].flatMap((api) =>
          [1, 2].map((page) =>
            call(api, 'GET', `/user/messages?take=100&page=${page}&includeStatusHistory=true`, userId),
          ),
        ),
      );
      for (const page of pages) expect(page.status).toBe(200);
      const [a1, a2, b1, b2] = pages.map((p) => p.body);
      expect(b1).toEqual(a1);
      expect(b2).toEqual(a2);
      expect({ total: a1.total, totalPages: a1.totalPages }).toEqual({ total: SENDS, totalPages: 2 });
      const listed = [...a1.messages, ...a2.messages];
      expect(listed.map((m: { id: string }) => m.id).sort()).toEqual([...ids].sort());
      expect(new Set(listed.map((m) => statuses(m).join(',')))).toEqual(new Set(['queued,sending,sent']));
      // For the report: how long a job held its lease (claim to record of the outcome), and waited before its claim.
      const gaps = (from: number, to: number) =>
        listed
          .map((m) => Date.parse(m.statusHistory[to].at) - Date.parse(m.statusHistory[from].at))
          .sort((x, y) => x - y);
      const [claimToRecord, queuedToClaim] = [gaps(1, 2), gaps(0, 1)];
      process.stdout.write(
        `many-processes: claim to record p50 ${claimToRecord[SENDS / 2]} ms, max ${claimToRecord.at(-1)} ms; queued to claim max ${queuedToClaim.at(-1)} ms\n`,
      );
      const sentTotals = await Promise.all(
        [0, 1].map((api) => call(api, 'GET', '/user/messages?statuses=sent&take=1', userId)),
      );
      expect(sentTotals.map((r) => r.body.total)).toEqual([SENDS, SENDS]);

      // (3) Each status change is one event, posted once, signed with the key every process shares.
      await waitWhileChanging(
        () => new Set(receiver.on(path).map((r) => r.headers['webhook-id'])).size,
        (events) => events === 3 * SENDS,
        `${3 * SENDS} events at the receiver`,
      );
      await waitForJobs(WEBHOOK_QUEUE);
      const requestsReceived = receiver.on(path);
      const perEvent = new Map<string, number>();
      for (const r of requestsReceived)
        perEvent.set(header(r, 'webhook-id'), (perEvent.get(header(r, 'webhook-id')) ?? 0) + 1);
      expect([...perEvent.values()].filter((n) => n !== 1)).toEqual([]);
      expect(requestsReceived.map((r) => r.answered)).toEqual(requestsReceived.map(() => 200));
      const { body: secret } = await call(0, 'GET', '/user/webhook-secret', userId);
      expect(requestsReceived.filter((r) => !verifiesRequest(secret.secret, r))).toEqual([]);
      const byMessage = new Map<string, typeof requestsReceived>();
      for (const r of requestsReceived) {
        const messageId = JSON.parse(r.rawBody).data.message.id;
        byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), r]);
      }
      expect([...byMessage.keys()].sort()).toEqual([...ids].sort());
      for (const [messageId, received] of byMessage) {
        const events = distinctEvents(received).map(({ event }) => [event.type, event.data.sequence]);
        expect([messageId, events]).toEqual([
          messageId,
          [
            ['message.queued', 1],
            ['message.sending', 2],
            ['message.sent', 3],
          ],
        ]);
      }
    },
    TIMEOUT,
  );

  it(
    "hand a SIGKILLed worker's jobs to the other worker: all sent, and only messages it held are sent twice",
    async () => {
      const userId = newUserId('takeover');
      // The connection peaks are those of the first test's run: a killed process's are no one's.
      stopSamplingConnections();
      // Worker 0's relay holds every reply, so its slots fill and stay full; worker 1's is slow, and
      // there are more sends than worker 1 holds at once (in flight and in stock), so that worker 0
      // gets its share before worker 1 has taken everything.
      const sends = 32;
      sinks[0].reply = (mail) =>
        new Promise<SinkReply>((release) => held.push({ messageId: mail.messageId!, release }));
      // Worker 1 answers nothing before worker 0's slots have filled: however slowly a busy machine
      // runs worker 0, worker 1 cannot deliver every message first. Latched: once killed, worker 0
      // holds nothing. A third of the lease at most, well within it and the relay's socket timeout.
      let worker0Filled = false;
      let worker1WaitedInVain = false;
      const worker0Full = () => (worker0Filled ||= held.length >= CONCURRENCY);
      sinks[1].reply = async (): Promise<SinkReply> => {
        const deadline = Date.now() + (LEASE_SECONDS * 1000) / 3;
        while (!worker0Full()) {
          if (Date.now() >= deadline) {
            worker1WaitedInVain = true;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        return 'accept';
      };
      const ids = await acceptAll(
        Array.from({ length: sends }, (_, i) => ({ api: i % 2, messages: [sendBody({ subject: `Takeover ${i}` })] })),
        userId,
      );
      // Worker 0's slots are all in DATA, and no job is left waiting: each is worker 0's (in DATA or
      // claimed in its stock) or worker 1's.
      await waitWhileChanging(
        () => held.length,
        (holding) => holding === CONCURRENCY,
        `worker 0 holding ${CONCURRENCY} messages in DATA`,
        30_000,
      );
      expect(worker1WaitedInVain).toBe(false);
      await waitForJobs(DELIVERY_QUEUE, ['created', 'retry']);
      const inData = held.map((h) => ids.find((id) => h.messageId.includes(id))!);
      expect(new Set(inData).size).toBe(CONCURRENCY);

      const [victim] = workers.splice(0, 1);
      victim.child.kill('SIGKILL');
      expect(await exitOf(victim.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      await victim.stop();
      // The dead worker's relay now answers: every other held message is accepted (the relay took it,
      // the worker died before recording it: the duplicate window of docs/delivery-and-deliverability.md#statuses), the rest refused.
      const acceptedByDeadWorker = new Set<string>();
      for (const [i, { messageId, release }] of held.splice(0).entries()) {
        if (i % 2 === 0) acceptedByDeadWorker.add(ids.find((id) => messageId.includes(id))!);
        release(i % 2 === 0 ? 'accept' : { code: 451, message: '4.4.2 Client went away before the reply' });
      }
      await sinks[0].waitUntil(() => [...acceptedByDeadWorker].every((id) => copiesBySink(id)[0] === 1));

      await waitUntilSent(0, userId, sends, TAKEOVER_STALL_MS);
      await waitForJobs(DELIVERY_QUEUE, ['created', 'retry', 'active'], TAKEOVER_STALL_MS);

      // Every message was relayed; only those the relay accepted from the dead worker, twice.
      expect(ids.filter((id) => copies(id) === 0)).toEqual([]);
      const twice = ids.filter((id) => copies(id) > 1);
      expect(twice.sort()).toEqual([...acceptedByDeadWorker].sort());
      expect(twice.every((id) => inData.includes(id))).toBe(true);
      expect(twice.length).toBeLessThanOrEqual(inData.length);
      // Worker 0's jobs (in DATA or in stock) came back after their lease, and worker 1 relayed each once.
      const { body } = await call(1, 'GET', `/user/messages?take=${sends}&includeStatusHistory=true`, userId);
      const history = new Map<string, string[]>(
        body.messages.map((m: { id: string; statusHistory: { status: string }[] }) => [m.id, statuses(m)]),
      );
      const takenOver = ids.filter((id) => history.get(id)!.filter((s) => s === 'sending').length === 2);
      expect(takenOver).toEqual(expect.arrayContaining(inData));
      expect(takenOver.map((id) => copiesBySink(id)[1])).toEqual(takenOver.map(() => 1));
      const ways = ['queued,sending,sent', 'queued,sending,sending,sent'];
      expect(ids.filter((id) => !ways.includes(history.get(id)!.join(',')))).toEqual([]);
      process.stdout.write(
        `many-processes: the killed worker held ${inData.length} messages in DATA and ${takenOver.length - inData.length} claimed in stock; ${twice.length} sent twice\n`,
      );
      expect(workers[0].child.exitCode).toBeNull();
    },
    TIMEOUT,
  );
});
