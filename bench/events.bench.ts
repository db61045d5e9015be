// The price of account-wide events (docs/delivery-and-deliverability.md#webhooks), in one run (`npm run bench`, or `-- --only events`):
// - sends and their delivery with no endpoint, then with one endpoint subscribed to every event
//   (a receiver in this process answering 200), each on a database of its own: the accept rate of
//   POST /sender/send, the delivery rate of a worker draining them (which posts the events too),
//   and the outbox rows written (a user without endpoints or message webhooks: none);
// - where a message's CPU goes in each drain, from the worker's first message at the sink or
//   event at the receiver (its start-up not counted, as in the delivery section) until every
//   message is sent and every event received: the worker's, PostgreSQL's (embedded server only) and this process's,
//   which answers the events;
// - the fan-out rate: account events (POST /user/suppressions) to 3 endpoints, posted by one
//   worker process, as deliveries (event × endpoint) a second.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { cpuNow, cpuSpent } from './cpu';
import { post } from './delivery.bench';
import {
  BENCH_JWT_SECRET,
  BenchDatabase,
  benchDatabase,
  runConcurrently,
  SinkProcess,
  startMailroomProcess,
} from './support';

const HTTP_CONNECTIONS = 32;
const ENV = {
  JWT_SECRET: BENCH_JWT_SECRET,
  RATE_LIMIT_PER_MINUTE: '100000000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

export interface EventsOptions {
  /** Messages sent with 0 endpoints, and again with 1; account events fanned out to 3 endpoints. */
  messages: number;
}

/** A receiver answering every POST with 200, counting them. */
class CountingReceiver {
  received = 0;
  firstAt = 0;
  lastAt = 0;
  private readonly server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      this.lastAt = performance.now();
      if (this.received++ === 0) this.firstAt = this.lastAt;
      response.end('ok');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  reset(): void {
    [this.received, this.firstAt, this.lastAt] = [0, 0, 0];
  }

  async waitFor(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received < count) {
      if (Date.now() > deadline) throw new Error(`the receiver saw ${this.received} of ${count} events in time`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function scalar(url: string, sql: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(sql)).rows[0].n);
  } finally {
    await client.end();
  }
}

/** n sends with `endpoints` endpoints (subscribed to every event) on a fresh database: accept and delivery rates. */
async function sendsAndDelivery(
  database: BenchDatabase,
  sink: SinkProcess,
  receiver: CountingReceiver,
  receiverUrl: string,
  endpoints: number,
  n: number,
) {
  const url = await database.another();
  const env = { ...ENV, SMTP_URL: `smtp://127.0.0.1:${sink.port}` };
  const api = await startMailroomProcess(url, { role: 'api', env });
  let acceptRate: number;
  try {
    for (let i = 0; i < endpoints; i++) await post(api.port, '/user/webhook-endpoints', { url: receiverUrl });
    const started = performance.now();
    await runConcurrently(n, HTTP_CONNECTIONS, (i) =>
      post(api.port, '/sender/send', {
        subject: `Events benchmark ${i}`,
        html: `<p>Message <b>${i}</b></p>`,
        to: [`user${i}@example.com`],
        sender: 'bench@example.com',
      }),
    );
    acceptRate = n / ((performance.now() - started) / 1000);
  } finally {
    await api.stop();
  }
  receiver.reset();
  const before = await sink.count();
  const worker = await startMailroomProcess(url, { role: 'worker', env });
  const processes = { worker: worker.pid, sink: sink.pid, postgres: database.serverPid };
  try {
    // The worker's start-up is not counted: its CPU is read from its first sign of work, a
    // message at the sink or an event at the receiver (queued events are due from the start).
    const deadline = Date.now() + 60_000;
    while ((await sink.count()) === before && receiver.received === 0) {
      if (Date.now() > deadline) throw new Error('the worker did nothing within a minute');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const cpuBefore = cpuNow(processes);
    await sink.waitFor(before + 1, 60_000);
    const started = performance.now();
    const first = await sink.count();
    await sink.waitFor(before + n, 600_000);
    const pending = `SELECT count(*) AS n FROM messages WHERE status <> 'sent'`;
    while ((await scalar(url, pending)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const allSentAt = performance.now();
    const deliveryRate = (before + n - first) / ((allSentAt - started) / 1000);
    const eventsBySent = receiver.received;
    // queued, sending, sent: 3 events a message to each endpoint.
    if (endpoints > 0) await receiver.waitFor(3 * n * endpoints, 600_000);
    // How long the events took to catch up with the mail (mail goes first: docs/scaling.md#mail-first).
    const eventsLagMs = endpoints > 0 ? receiver.lastAt - allSentAt : 0;
    const cpuAfter = cpuNow(processes);
    // CPU ms a message over the drain, events included; PostgreSQL's only on the bench's own
    // server. The receiver is this process (the sink's own CPU is left out: it is the same with or without events).
    const cpu = {
      worker: cpuSpent('worker', cpuBefore, cpuAfter, n),
      postgres: cpuSpent('postgres', cpuBefore, cpuAfter, n),
      receiver: cpuSpent('client', cpuBefore, cpuAfter, n),
    };
    const outboxRows = await scalar(url, `SELECT count(*) AS n FROM webhook_events`);
    return { acceptRate, deliveryRate, outboxRows, cpu, eventsBySent, eventsLagMs };
  } finally {
    await worker.stop();
  }
}

/** `events` account events (suppressions added) to 3 endpoints, posted by one worker: deliveries a second. */
async function fanOut(database: BenchDatabase, receiver: CountingReceiver, receiverUrl: string, events: number) {
  const url = await database.another();
  const api = await startMailroomProcess(url, { role: 'api', env: ENV });
  try {
    for (let i = 0; i < 3; i++) await post(api.port, '/user/webhook-endpoints', { url: receiverUrl });
    await runConcurrently(events, HTTP_CONNECTIONS, (i) =>
      post(api.port, '/user/suppressions', { email: `gone${i}@example.com` }),
    );
  } finally {
    await api.stop();
  }
  receiver.reset();
  const worker = await startMailroomProcess(url, { role: 'worker', env: ENV });
  try {
    await receiver.waitFor(3 * events, 600_000);
    return (receiver.received - 1) / ((receiver.lastAt - receiver.firstAt) / 1000);
  } finally {
    await worker.stop();
  }
}

export async function eventsBench(options: EventsOptions): Promise<{ rows: string[][] }> {
  const n = options.messages;
  const sink = await SinkProcess.start();
  const receiver = new CountingReceiver();
  const receiverUrl = await receiver.start();
  const database = await benchDatabase();
  try {
    const none = await sendsAndDelivery(database, sink, receiver, receiverUrl, 0, n);
    const one = await sendsAndDelivery(database, sink, receiver, receiverUrl, 1, n);
    const fanOutRate = await fanOut(database, receiver, receiverUrl, n);
    const msgs = (rate: number) => `${rate.toFixed(0)} msg/s`;
    const cpuOf = ({ cpu }: typeof none) =>
      [cpu.worker, cpu.postgres, cpu.receiver].map((ms) => (ms === undefined ? '—' : ms.toFixed(2))).join(' / ');
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    return {
      rows: [
        [
          `events: accept, POST /sender/send (${HTTP_CONNECTIONS} connections), ${n} messages, 1 subscribed endpoint`,
          msgs(one.acceptRate),
          `${msgs(none.acceptRate)} with none`,
          ratio(one.acceptRate, none.acceptRate),
          'both reported',
          '—',
        ],
        [
          `events: delivery, queued → worker → sink → sent, ${n} messages, 1 subscribed endpoint (its 3 events a message posted by the same worker)`,
          msgs(one.deliveryRate),
          `${msgs(none.deliveryRate)} with none`,
          ratio(one.deliveryRate, none.deliveryRate),
          '≥ 0.7× with none',
          one.deliveryRate >= 0.7 * none.deliveryRate ? 'yes' : '**no**',
        ],
        [
          'events: posted by the time the last message was sent, and the last one after it, 1 subscribed endpoint',
          `${one.eventsBySent} of ${3 * n}, ${(one.eventsLagMs / 1000).toFixed(1)} s after`,
          '',
          '',
          'reported',
          '—',
        ],
        [
          'events: CPU ms a message over the drain and its events, worker / PostgreSQL / receiver (this process), 1 subscribed endpoint',
          cpuOf(one),
          `${cpuOf(none)} with none`,
          '',
          'reported',
          '—',
        ],
        [
          'events: outbox rows written, no endpoint and no message webhook / 1 endpoint',
          `${none.outboxRows} / ${one.outboxRows}`,
          '',
          '',
          `0 / ${3 * n}`,
          none.outboxRows === 0 && one.outboxRows === 3 * n ? 'yes' : '**no**',
        ],
        [
          `events: fan-out, ${n} account events to 3 endpoints, one worker process`,
          `${fanOutRate.toFixed(0)} deliveries/s (${(fanOutRate / 3).toFixed(0)} events/s)`,
          '',
          '',
          'reported',
          '—',
        ],
      ],
    };
  } finally {
    await receiver.stop();
    await sink.stop();
    await database.close();
  }
}
