// Mail first (docs/scaling.md#mail-first), wired through the real app: while messages wait for a
// delivery slot in a process, its webhook loop posts one event at a time; once the mail has gone,
// the events get their slots again. Each mail holds a delivery slot for SINK_MS (well under the
// second past which a slot counts as waiting on a mail server), each post holds a webhook slot
// for POST_MS, and the worker has two delivery slots, so the mail backlog lasts seconds.
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { newUserId } from '../../support/tokens';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const MESSAGES = 30;
const EVENTS = MESSAGES * 3;
const SINK_MS = 200;
const POST_MS = 100;
// The backlog is judged from SETTLE_MS after the sink has accepted FIRST_FEW mails (the delivery
// loop then holds a stock, and the posts begun before have ended) to the moment LAST_FEW messages
// are left to deliver (the stock then runs dry).
const FIRST_FEW = 4;
const SETTLE_MS = 2 * POST_MS;
const LAST_FEW = 4;

describe('webhook slots: mail first', () => {
  const { receiver, sink, t, send } = bootWebhookApp({
    ...TO_LOOPBACK,
    WORKER_CONCURRENCY: '2',
    WEBHOOK_TIMEOUT_MS: '5000',
  });

  it(
    'posts one event at a time while mail waits for a delivery slot, and takes its slots back once the mail has gone',
    async () => {
      const userId = newUserId('mail-first');
      const path = newPath('mail-first');
      await createEndpoint(t.http, userId, receiver.url(path));
      sink.reply = () => new Promise((resolve) => setTimeout(() => resolve('accept'), SINK_MS));
      let firstFewAt: number | undefined;
      const sent = () => sink.accepted.length;
      // Posts in progress at each post's arrival, during the backlog and after the last mail.
      let inProgress = 0;
      const duringBacklog: number[] = [];
      const afterMail: number[] = [];
      receiver.reply = () => {
        inProgress++;
        firstFewAt ??= sent() >= FIRST_FEW ? Date.now() : undefined;
        if (firstFewAt !== undefined && Date.now() - firstFewAt > SETTLE_MS && sent() < MESSAGES - LAST_FEW)
          duringBacklog.push(inProgress);
        if (sent() === MESSAGES) afterMail.push(inProgress);
        return new Promise((resolve) =>
          setTimeout(() => {
            inProgress--;
            resolve({ status: 200 });
          }, POST_MS),
        );
      };

      await Promise.all(Array.from({ length: MESSAGES }, () => send(userId)));
      await receiver.waitFor(() => receiver.on(path).length >= EVENTS, `${EVENTS} events`, TIMEOUT - 30_000);

      process.stdout.write(
        `mail-first: ${duringBacklog.length} posts began during the mail backlog (at most ${Math.max(...duringBacklog)} at once), ` +
          `${afterMail.length} after the last mail (at most ${Math.max(...afterMail)} at once)\n`,
      );
      // The backlog lasted seconds (MESSAGES × SINK_MS over 2 slots), so posts did begin in it.
      expect(duringBacklog.length).toBeGreaterThan(0);
      expect(Math.max(...duringBacklog)).toBe(1);
      // Once the mail had gone, posts ran side by side again (a target's turns allow 8).
      expect(afterMail.length).toBeGreaterThan(0);
      expect(Math.max(...afterMail)).toBeGreaterThan(2);
    },
    TIMEOUT,
  );
});
