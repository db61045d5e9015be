// A webhook job that comes after its event is done with (a duplicate, or a job outliving a replay
// it raced) posts nothing and is completed at once, instead of holding its slot until its lease
// runs out and then coming back, up to pg-boss's retry limit.
import { WEBHOOK_QUEUE, WebhookQueue } from '../../../src/platform/queue/webhook-queue';
import { newUserId } from '../../support/tokens';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { allIn, deliveriesOf, waitForLog } from '../../support/webhooks/webhook-endpoints';

describe('a webhook job for an event already delivered', () => {
  const { receiver, t, send } = bootWebhookApp(TO_LOOPBACK);

  const jobStates = async (eventId: string): Promise<string[]> =>
    (
      await t.db.query(`SELECT state FROM pgboss.job WHERE name = $1 AND data->>'eventId' = $2 ORDER BY created_on`, [
        WEBHOOK_QUEUE,
        eventId,
      ])
    ).map((row: { state: string }) => row.state);

  it(
    'posts nothing and is completed',
    async () => {
      const userId = newUserId('stale');
      const path = newPath('stale');
      const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
      const [event] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');

      const queue = t.app.get(WebhookQueue);
      await t.db.transaction((manager) => queue.enqueue(manager, [event.id]));

      // Well within the webhook lease (WEBHOOK_TIMEOUT_MS + 30 s), after which a job left active would come back.
      const deadline = Date.now() + 10_000;
      let states = await jobStates(event.id);
      while (!(states.length === 2 && states.every((s) => s === 'completed'))) {
        if (Date.now() > deadline) throw new Error(`the duplicate job was not completed: ${JSON.stringify(states)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        states = await jobStates(event.id);
      }
      expect(receiver.on(path)).toHaveLength(1);
      const [after] = (await deliveriesOf(t.http, userId, { messageId: accepted.id })).deliveries;
      expect(after).toMatchObject({ id: event.id, state: 'delivered' });
      expect(after.attempts).toHaveLength(1);
    },
    TIMEOUT,
  );
});
