// How the suites that start real processes (many-processes, npm-start, process, shutdown...) wait
// for them, and for what they send (the webhook receiver, the SMTP sink, a backlog): until the process answers, for as long as it makes progress (prints, or uses CPU time
// in its process tree), and no longer once it has made none for the stall time or has exited. A
// start that a busy machine slows down is waited for; a stuck one fails with the reason. Each child
// here is a small real Node process whose behaviour the test decides.
import { freePort } from '../../src/platform/free-port';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { createTransport } from 'nodemailer';
import { exitWhileProgressing, ProgressWatch } from '../support/process-progress';
import { SmtpSink } from '../support/smtp-sink';
import { waitWhileChanging } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The stall time these tests give: far shorter than the children take to answer. */
const STALL_MS = 2000;
/** How long each slow child takes before it listens: over twice the stall time. */
const SLOW_MS = 5000;
const TIMEOUT = 120_000;

/** A child that does `before` (a statement using SLOW_MS) and then answers 200 on its PORT. */
const listenAfter = (before: string) => `
  const listen = () => require('node:http').createServer((q, r) => r.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');
  const SLOW_MS = ${SLOW_MS};
  ${before}
`;
const PRINTING = listenAfter(
  `const timer = setInterval(() => console.log('still starting'), 300); setTimeout(() => { clearInterval(timer); listen(); }, SLOW_MS);`,
);
const BUSY = listenAfter(
  `for (const end = Date.now() + SLOW_MS; Date.now() < end; ) Math.sqrt(Math.random()); listen();`,
);
const SILENT_AND_IDLE = listenAfter(`setTimeout(listen, 600_000);`);
const IDLE_THEN_LISTENING = listenAfter(`setTimeout(listen, SLOW_MS);`);

const started: ServiceProcess[] = [];

async function child(script: string): Promise<{ service: ServiceProcess; url: string }> {
  const port = await freePort();
  const service = startServiceProcess({ PORT: String(port) }, { command: [process.execPath, '-e', script] });
  started.push(service);
  return { service, url: `http://127.0.0.1:${port}/` };
}

afterEach(async () => {
  for (const service of started.splice(0)) await service.stop();
});

describe('waiting for a starting process', () => {
  it.each([
    ['prints as it goes', PRINTING],
    ['computes silently', BUSY],
  ])(
    'waits past the stall time for a process that %s and answers later',
    async (_how, script) => {
      const { service, url } = await child(script);
      const since = Date.now();

      await waitUntilAnswering(url, service, STALL_MS);

      // A deadline of STALL_MS in wall time would have failed this start.
      expect(Date.now() - since).toBeGreaterThan(STALL_MS);
      expect((await fetch(url)).status).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'gives up on a process that neither prints nor computes for the stall time, saying so',
    async () => {
      const { service, url } = await child(SILENT_AND_IDLE);
      const since = Date.now();

      const failure = await waitUntilAnswering(url, service, STALL_MS).catch((error: Error) => error);

      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(
        /did not answer 200 \(last: no connection\): .*no output and no CPU time/,
      );
      expect(Date.now() - since).toBeGreaterThanOrEqual(STALL_MS);
      // The control: it was still running, only stuck.
      expect(service.exitedAt).toBeUndefined();
    },
    TIMEOUT,
  );

  it(
    'fails at once when the process exits, without waiting for a stall',
    async () => {
      const { service, url } = await child(`console.error('cannot start'); process.exit(3);`);

      const failure = await waitUntilAnswering(url, service, 10 * 60_000).catch((error: Error) => error);

      expect((failure as Error).message).toMatch(/it exited\n.*exit 3[\s\S]*cannot start/);
    },
    TIMEOUT,
  );

  it(
    'counts the progress of processes watched together: one waiting its turn waits while the other works',
    async () => {
      const waiting = await child(IDLE_THEN_LISTENING);
      const working = await child(PRINTING);
      const together = new ProgressWatch([waiting.service, working.service], STALL_MS);

      await Promise.all([
        waitUntilAnswering(waiting.url, waiting.service, together),
        waitUntilAnswering(working.url, working.service, together),
      ]);

      // The control: watched alone, the idle one is given up on.
      const alone = await child(IDLE_THEN_LISTENING);
      await expect(waitUntilAnswering(alone.url, alone.service, STALL_MS)).rejects.toThrow(/no output and no CPU time/);
    },
    TIMEOUT,
  );

  it(
    'waits for an exit while the process works, and gives up on one that stopped working',
    async () => {
      const exiting = await child(`for (const end = Date.now() + ${SLOW_MS}; Date.now() < end; ); process.exit(4);`);
      expect(await exitWhileProgressing(exiting.service.child, new ProgressWatch([exiting.service], STALL_MS))).toEqual(
        {
          code: 4,
          signal: null,
        },
      );

      const stuck = await child(SILENT_AND_IDLE);
      await expect(
        exitWhileProgressing(stuck.service.child, new ProgressWatch([stuck.service], STALL_MS)),
      ).rejects.toThrow(`Gave up waiting for pid ${stuck.service.child.pid} to exit: no output and no CPU time`);
    },
    TIMEOUT,
  );
});

describe('waiting for what the processes send', () => {
  /**
   * Does `step` SLOW_MS / 300 times, 300 ms apart, so that a wait of STALL_MS sees progress the
   * whole time. Counted, not timed: on a busy machine late timers give fewer steps in SLOW_MS, and
   * the waits below count on every one.
   */
  const steadily = async (step: () => unknown) => {
    for (let i = 0; i < Math.floor(SLOW_MS / 300); i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      void step();
    }
  };

  it(
    'the webhook receiver waits while requests keep arriving, and gives up once none has for the time given',
    async () => {
      const receiver = new WebhookReceiver();
      await receiver.start();
      try {
        const posting = steadily(() => fetch(receiver.url('/slow'), { method: 'POST', body: '{}' }));
        const done = posting.then(() => fetch(receiver.url('/done'), { method: 'POST', body: '{}' }));

        await receiver.waitFor(() => receiver.on('/done').length === 1, 'the last request', STALL_MS);

        await done;
        expect(receiver.on('/slow').length).toBeGreaterThan(SLOW_MS / 300 / 2);
        await expect(receiver.waitFor(() => false, 'nothing', STALL_MS)).rejects.toThrow(
          `nothing arrived for ${STALL_MS} ms`,
        );
      } finally {
        await receiver.stop();
      }
    },
    TIMEOUT,
  );

  it(
    'the SMTP sink waits while mail keeps coming, and gives up once none has for the time given',
    async () => {
      const sink = new SmtpSink();
      const transport = createTransport({ url: sink.url(await sink.start()), pool: false });
      try {
        const mail = (subject: string) =>
          transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject, text: subject });
        const sending = steadily(() => mail('slow'));
        void sending.then(() => mail('last'));

        await sink.waitUntil(() => sink.accepted.some((m) => m.parsed.subject === 'last'), STALL_MS);

        expect(sink.accepted.filter((m) => m.parsed.subject === 'slow').length).toBeGreaterThan(SLOW_MS / 300 / 2);
        await expect(sink.waitUntil(() => false, STALL_MS)).rejects.toThrow(`no message came for ${STALL_MS} ms`);
      } finally {
        transport.close();
        await sink.stop();
      }
    },
    TIMEOUT,
  );

  it(
    'waitWhileChanging waits while the value read changes, and gives up once it has not for the stall time',
    async () => {
      let count = 0;
      const counting = steadily(() => count++);

      expect(
        await waitWhileChanging(
          () => count,
          () => count >= SLOW_MS / 300 - 2,
          'the count',
          STALL_MS,
        ),
      ).toBeGreaterThan(0);

      await counting;
      await expect(
        waitWhileChanging(
          () => count,
          () => false,
          'a count that stopped',
          STALL_MS,
        ),
      ).rejects.toThrow(`No progress for ${STALL_MS} ms waiting for a count that stopped`);
    },
    TIMEOUT,
  );
});
