// The acceptance sections of `npm run bench` (and `--only send`, `batch`, `uploads`):
// - POST /sender/send under autocannon against the same inserts run straight through pg with the
//   same concurrency, with the resident memory of the process (API and worker in one, ROLE=all);
//   each load after WARM_UP_SECONDS of the same, unmeasured;
// - POST /sender/send/batch (BATCH_SIZE messages a request, a few clients) against the same rows
//   loaded through pg with COPY, as accepted messages per second;
// - the resident memory of an API process taking UPLOADS uploads of 10 MiB at once.
import autocannon from 'autocannon';
import { Client } from 'pg';
import { DELIVERY_QUEUE } from '../src/platform/queue/delivery-queue';
import { BATCH_SIZE, copyBatchCeiling } from './copy-ceiling';
import { rawSendCeiling, SEND_BODY } from './raw-send';
import {
  BENCH_JWT_SECRET,
  benchBearer,
  benchDatabase,
  MailroomProcess,
  rssMiB,
  SinkProcess,
  startMailroomProcess,
} from './support';

export interface LoadOptions {
  /** How long each load lasts. */
  seconds: number;
}

export const SEND_CONNECTIONS = 32;
// Each load runs this long unmeasured first: a process that has just started spends its first
// few thousand requests compiling (V8's optimizing compiler runs on threads of its own, and
// their CPU is the process's), which a deployed API process did long ago. A single send cost
// the API 1.44-1.62 ms of CPU in its first 5,000 and 1.06-1.11 ms in each 5,000 after.
export const WARM_UP_SECONDS = 5;
// A few clients, each with a batch of BATCH_SIZE in flight: what a bulk sender does.
export const BATCH_CLIENTS = 4;
// The memory target's upload scenario: 20 files of MAX_ATTACHMENT_BYTES's default at once.
const UPLOADS = 20;
const UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * `body` POSTed to the API process's `path` from `connections` clients, for WARM_UP_SECONDS
 * unmeasured and then for `seconds`: the measured load, and the 2xx answers and failures
 * (non-2xx, socket errors, timeouts) of both, since both store messages.
 */
async function postAfterWarmUp(
  target: { port: number; path: string; authorization: string; connections: number; body: unknown },
  seconds: number,
): Promise<{ load: autocannon.Result; answered: number; failures: number }> {
  const post = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${target.port}${target.path}`,
      method: 'POST',
      connections: target.connections,
      duration,
      headers: { authorization: target.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(target.body),
    });
  const warmUp = await post(WARM_UP_SECONDS);
  const load = await post(seconds);
  return {
    load,
    answered: warmUp['2xx'] + load['2xx'],
    failures: [warmUp, load].reduce((sum, l) => sum + l.non2xx + l.errors + l.timeouts, 0),
  };
}

export async function sendBench({
  seconds,
}: LoadOptions): Promise<{ rows: string[][]; peakRss: number; passed: boolean }> {
  const sink = await SinkProcess.start();
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    mailroom = await startMailroomProcess(database.url, {
      role: 'all',
      env: {
        JWT_SECRET: BENCH_JWT_SECRET,
        RATE_LIMIT_PER_MINUTE: '100000000',
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      },
    });
    const authorization = benchBearer('bench-sender');
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(mailroom!.pid))), 250);
    const { load, answered, failures } = await postAfterWarmUp(
      { port: mailroom.port, path: '/sender/send', authorization, connections: SEND_CONNECTIONS, body: SEND_BODY },
      seconds,
    );
    clearInterval(sampler);
    await mailroom.stop();
    mailroom = undefined;
    // Every 201 must be a stored message with its delivery job (queued, or already delivered);
    // requests still in flight when the load stopped may add stored messages beyond the 201s counted.
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const {
      rows: [stored],
    } = await client.query(
      `SELECT (SELECT count(*)::int FROM messages) AS messages,
              (SELECT count(*)::int FROM pgboss.job WHERE name = $1)
                + (SELECT count(*)::int FROM pgboss.archive WHERE name = $1) AS jobs`,
      [DELIVERY_QUEUE],
    );
    await client.end();
    const accepted = load['2xx'];
    const rate = accepted / seconds;
    const ceiling = await rawSendCeiling(database.url, SEND_CONNECTIONS, seconds);
    const durable = stored.messages >= answered && stored.jobs === stored.messages;
    const fastEnough = load.latency.p99 < 100;
    const passed = failures === 0 && durable && rate >= ceiling * 1.5 && fastEnough;
    return {
      peakRss,
      passed,
      rows: [
        [
          `send: POST /sender/send, ${SEND_CONNECTIONS} connections, ${seconds} s`,
          `${rate.toFixed(0)} msg/s`,
          `${ceiling.toFixed(0)} msg/s`,
          `${(rate / ceiling).toFixed(2)}×`,
          '≥ 1.5× one transaction per message',
          rate >= ceiling * 1.5 ? 'yes' : '**no**',
        ],
        [
          'send latency p50 / p99',
          `${load.latency.p50} / ${load.latency.p99} ms`,
          '',
          '',
          'p99 < 100 ms',
          fastEnough ? 'yes' : '**no**',
        ],
        [
          'send errors (non-2xx, socket errors, timeouts)',
          String(failures),
          '',
          '',
          '0',
          failures === 0 ? 'yes' : '**no**',
        ],
        [
          '201s (warm-up included) ≤ stored messages = delivery jobs',
          `${answered} ≤ ${stored.messages} = ${stored.jobs}`,
          '',
          '',
          'all durable',
          durable ? 'yes' : '**no**',
        ],
        [
          'peak RSS under the send load (ROLE=all: API and worker)',
          `${peakRss.toFixed(0)} MiB`,
          '',
          '',
          '< 300 MiB',
          peakRss < 300 ? 'yes' : '**no**',
        ],
      ],
    };
  } finally {
    await mailroom?.stop();
    await sink.stop();
    await database.close();
  }
}

export async function batchBench({ seconds }: LoadOptions): Promise<{ rows: string[][]; passed: boolean }> {
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    // ROLE=api: this measures acceptance, as the COPY ceiling does; delivery has its own bench.
    mailroom = await startMailroomProcess(database.url, {
      role: 'api',
      env: { JWT_SECRET: BENCH_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
    });
    const authorization = benchBearer('bench-batch');
    const { load, answered, failures } = await postAfterWarmUp(
      {
        port: mailroom.port,
        path: '/sender/send/batch',
        authorization,
        connections: BATCH_CLIENTS,
        body: { messages: Array.from({ length: BATCH_SIZE }, () => SEND_BODY) },
      },
      seconds,
    );
    await mailroom.stop();
    mailroom = undefined;
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const {
      rows: [stored],
    } = await client.query(
      `SELECT (SELECT count(*)::int FROM messages) AS messages, (SELECT count(*)::int FROM pgboss.job WHERE name = $1) AS jobs`,
      [DELIVERY_QUEUE],
    );
    await client.end();
    const accepted = load['2xx'] * BATCH_SIZE;
    const rate = accepted / seconds;
    const ceiling = await copyBatchCeiling(database.url, BATCH_CLIENTS, seconds);
    const durable = stored.messages >= answered * BATCH_SIZE && stored.jobs === stored.messages;
    const fastEnough = rate >= 3000 && rate >= ceiling * 0.35;
    const passed = failures === 0 && durable && fastEnough;
    return {
      passed,
      rows: [
        [
          `batch: POST /sender/send/batch, ${BATCH_SIZE} a request, ${BATCH_CLIENTS} clients, ${seconds} s`,
          `${rate.toFixed(0)} msg/s`,
          `${ceiling.toFixed(0)} msg/s`,
          `${(rate / ceiling).toFixed(2)}×`,
          '≥ 3,000 msg/s and ≥ 0.35× COPY',
          fastEnough ? 'yes' : '**no**',
        ],
        ['batch latency p50 / p99', `${load.latency.p50} / ${load.latency.p99} ms`, '', '', '', ''],
        [
          'batch errors (non-2xx, socket errors, timeouts)',
          String(failures),
          '',
          '',
          '0',
          failures === 0 ? 'yes' : '**no**',
        ],
        [
          'batch: accepted (warm-up included) ≤ stored messages = delivery jobs',
          `${answered * BATCH_SIZE} ≤ ${stored.messages} = ${stored.jobs}`,
          '',
          '',
          'all durable',
          durable ? 'yes' : '**no**',
        ],
      ],
    };
  } finally {
    await mailroom?.stop();
    await database.close();
  }
}

/** The resident memory of an API process while UPLOADS files of the largest size arrive at once. */
export async function uploadBench(): Promise<{ rows: string[][]; peakRss: number }> {
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    mailroom = await startMailroomProcess(database.url, {
      role: 'api',
      env: { JWT_SECRET: BENCH_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
    });
    const authorization = benchBearer('bench-uploads');
    const file = new Blob([Buffer.alloc(UPLOAD_BYTES, 0x61)]);
    const pid = mailroom.pid;
    let peakRss = rssMiB(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(pid))), 50);
    const statuses = await Promise.all(
      Array.from({ length: UPLOADS }, async (_, i) => {
        const form = new FormData();
        form.append('file', file, `bench-${i}.bin`);
        const response = await fetch(`http://127.0.0.1:${mailroom!.port}/attachments`, {
          method: 'POST',
          headers: { authorization },
          body: form,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    clearInterval(sampler);
    const stored = statuses.filter((status) => status === 201).length;
    return {
      peakRss,
      rows: [
        [
          `peak RSS under ${UPLOADS} concurrent ${UPLOAD_BYTES / 1024 / 1024} MiB uploads`,
          `${peakRss.toFixed(0)} MiB`,
          '',
          '',
          '< 300 MiB',
          peakRss < 300 ? 'yes' : '**no**',
        ],
        ['uploads stored (201)', `${stored} of ${UPLOADS}`, '', '', 'all', stored === UPLOADS ? 'yes' : '**no**'],
      ],
    };
  } finally {
    await mailroom?.stop();
    await database.close();
  }
}
