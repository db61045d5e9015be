// Scheduled sends (docs/api.md#sending, docs/delivery-and-deliverability.md#statuses): the queue's own delayed job holds the first delivery until
// scheduledAt; taking it moves the message scheduled → queued → sending, each with its webhook.
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { distinctEvents } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const DAY = 86_400_000;
const statuses = (message: { statusHistory: { status: string }[] }) => message.statusHistory.map((e) => e.status);

describe('scheduled sends (ROLE=all, SMTP sink, webhook receiver)', () => {
  const { receiver, sink, t, send } = bootWebhookApp(TO_LOOPBACK);

  const jobsOf = async (messageId: string): Promise<{ startAfter: Date; data: object }[]> =>
    t.db.query(`SELECT start_after AS "startAfter", data FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2`, [
      DELIVERY_QUEUE,
      messageId,
    ]);

  it(
    'holds the message until its moment, then delivers it: scheduled → queued → sending → sent, a webhook for each',
    async () => {
      const userId = newUserId('scheduled');
      const path = newPath('scheduled');
      let arrivedAt: number | undefined;
      sink.reply = () => ((arrivedAt = Date.now()), 'accept');
      // Written with an offset: the Message gives it back in UTC, to the millisecond. Far enough
      // ahead for the checks of the scheduled message below on a busy machine.
      const moment = new Date(Date.now() + 4_000);
      const local = new Date(moment.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');

      const accepted = await send(userId, { scheduledAt: local, webhook: { url: receiver.url(path), status: [] } });

      expect(accepted).toMatchObject({ status: 'scheduled', scheduledAt: moment.toISOString() });
      // The queue's own delayed job, at the moment itself: nothing polls the messages for due ones.
      expect(await jobsOf(accepted.id)).toEqual([
        { startAfter: moment, data: { messageId: accepted.id, attempt: 1, scheduled: true } },
      ]);
      const listed = await t.http
        .get('/user/messages')
        .query({ statuses: 'scheduled' })
        .set(bearer(userId))
        .expect(200);
      expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual([accepted.id]);

      const delivered = await waitForStatus(t.http, userId, accepted.id, 'sent');
      expect(statuses(delivered)).toEqual(['scheduled', 'queued', 'sending', 'sent']);
      expect(delivered.scheduledAt).toBe(moment.toISOString());
      const [, queued] = delivered.statusHistory;
      expect(Date.parse(queued.at)).toBeGreaterThanOrEqual(moment.getTime());
      expect(sink.acceptedFor(accepted.id)).toHaveLength(1);
      expect(arrivedAt).toBeGreaterThanOrEqual(moment.getTime());

      await receiver.waitFor(() => distinctEvents(receiver.on(path)).length >= 4, 'four events');
      const events = distinctEvents(receiver.on(path)).map(({ event }) => [
        event.type,
        event.data.sequence,
        event.data.message.scheduledAt,
      ]);
      expect(events).toEqual([
        ['message.scheduled', 1, moment.toISOString()],
        ['message.queued', 2, moment.toISOString()],
        ['message.sending', 3, moment.toISOString()],
        ['message.sent', 4, moment.toISOString()],
      ]);
    },
    TIMEOUT,
  );

  it(
    'takes a past moment as now: queued, delivered at once, the moment kept as given',
    async () => {
      const userId = newUserId('past');

      const accepted = await send(userId, { scheduledAt: '2020-01-01T00:00:00+01:00' });

      expect(accepted).toMatchObject({ status: 'queued', scheduledAt: '2019-12-31T23:00:00.000Z' });
      const [job] = await jobsOf(accepted.id);
      expect(job.data).toEqual({ messageId: accepted.id, attempt: 1 });
      const delivered = await waitForStatus(t.http, userId, accepted.id, 'sent');
      expect(statuses(delivered)).toEqual(['queued', 'sending', 'sent']);
    },
    TIMEOUT,
  );

  it('answers scheduledAt null where it was not given', async () => {
    const accepted = await send(newUserId('unscheduled'));

    expect(accepted).toMatchObject({ status: 'queued', scheduledAt: null });
  });

  describe('the 30-day bound, on a clock held still for the request', () => {
    const now = Date.now();
    let clock: jest.SpyInstance;
    beforeEach(() => (clock = jest.spyOn(Date, 'now').mockReturnValue(now)));
    afterEach(() => clock.mockRestore());

    it('accepts exactly 30 days ahead', async () => {
      const max = new Date(now + 30 * DAY).toISOString();

      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(newUserId('max')))
        .send(sendBody({ scheduledAt: max }))
        .expect(201);

      expect(body).toMatchObject({ status: 'scheduled', scheduledAt: max });
    });

    it('refuses one millisecond more, naming the field, and stores nothing', async () => {
      const userId = newUserId('past-max');

      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ scheduledAt: new Date(now + 30 * DAY + 1).toISOString() }))
        .expect(400);

      expect(body.errors).toEqual([
        { field: 'scheduledAt', message: `must be at most 30 days ahead (${new Date(now + 30 * DAY).toISOString()})` },
      ]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  it.each([
    ['a date alone', '2026-12-01'],
    ['a date-time without an offset', '2026-12-01T09:00:00'],
    ['a day that does not exist', '2026-02-30T09:00:00Z'],
    ['a number', 1_790_000_000_000],
  ])('refuses %s as scheduledAt, and stores nothing', async (_, scheduledAt) => {
    const userId = newUserId('bad-moment');

    const { body } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody({ scheduledAt })).expect(400);

    expect(body.errors).toEqual([
      { field: 'scheduledAt', message: 'must be an ISO 8601 date-time with an offset or Z (2026-03-01T09:00:00Z)' },
    ]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });
});
