// MESSAGE_RETENTION_DAYS for the delivery log of account events (docs/delivery-and-deliverability.md#webhooks), which have no message
// to be deleted with: the deliveries created before midnight UTC that many days ago go with their
// attempts once no longer pending; those in the window, a pending one, and a message's event stay.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { WebhookRetention } from '../../../src/webhooks/webhook-retention';
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

// Retention 3 days, on 7 March at noon: what was created before 4 March is past the window.
const NOW = new Date('2026-03-07T12:00:00.000Z');
const CUTOFF = Date.parse('2026-03-04T00:00:00.000Z');

describe('account-event delivery retention (ROLE=all, real receiver)', () => {
  const { receiver, t, send } = bootWebhookApp({ ...TO_LOOPBACK, MESSAGE_RETENTION_DAYS: '3' });

  it(
    'deletes the finished account-event deliveries created before the window with their attempts, and keeps the rest',
    async () => {
      const userId = newUserId('event-retention');
      const path = newPath('event-retention');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path), [
        'suppression.created',
        'message.sent',
      ]);
      for (const local of ['old', 'pending', 'at-cutoff'])
        await t.http
          .post('/user/suppressions')
          .set(bearer(userId))
          .send({ email: `${local}-${userId}@example.com` })
          .expect(201);
      const message = await send(userId, { to: ['ada@example.com'] });
      await waitForStatus(t.http, userId, message.id, 'sent');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const deliveries = async (): Promise<{ id: string; messageId: string | null; type: string }[]> =>
        (
          await t.http
            .get('/user/webhook-deliveries')
            .query({ endpointId: endpoint.id })
            .set(bearer(userId))
            .expect(200)
        ).body.deliveries;
      const all = await deliveries();
      expect(all).toHaveLength(4);
      const suppressionOf = async (local: string) => {
        const [{ id }] = await t.db.query(
          `SELECT id FROM webhook_events WHERE endpoint_id = $1 AND data->'suppression'->>'email' = $2`,
          [endpoint.id, `${local}-${userId}@example.com`],
        );
        return id as string;
      };
      const [old, pending, atCutoff] = [
        await suppressionOf('old'),
        await suppressionOf('pending'),
        await suppressionOf('at-cutoff'),
      ];
      const sent = all.find((delivery) => delivery.messageId === message.id)!;
      const [{ attempts }] = await t.db.query(
        `SELECT count(*)::int AS attempts FROM webhook_attempts WHERE event_id = $1`,
        [old],
      );
      expect(attempts).toBe(1);
      // Their ages: one before the window, one before it but still being retried, one at its start;
      // the message's event is old too, but it goes with its message (MessageRetention).
      const age = (id: string, at: number, state?: string) =>
        t.db.query(`UPDATE webhook_events SET created_at = $2, state = COALESCE($3, state) WHERE id = $1`, [
          id,
          new Date(at),
          state ?? null,
        ]);
      await age(old, CUTOFF - 1);
      await age(pending, CUTOFF - 1, 'pending');
      await age(atCutoff, CUTOFF);
      await age(sent.id, CUTOFF - 1);

      expect(await t.app.get(WebhookRetention).purge(NOW)).toBe(1);

      expect((await deliveries()).map((delivery) => delivery.id).sort()).toEqual([pending, atCutoff, sent.id].sort());
      const [{ left }] = await t.db.query(`SELECT count(*)::int AS left FROM webhook_attempts WHERE event_id = $1`, [
        old,
      ]);
      expect(left).toBe(0);
    },
    TIMEOUT,
  );
});
