// GET /user/stats (docs/api.md#reading-back): a day's byStatus[s] is the list's `total` for that day and status,
// and a plain count of the messages, after stores across a UTC day boundary, sends, status
// changes, retention and a cancel; the range's defaults and limits (366 days, not 367).
import { MessageRetention } from '../../../src/messages/message-retention';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import { RECIPIENT_STATUSES } from '../../../src/messages/recipient-fates';
import type { MessageStatus } from '../../../src/messages/message-status';
import { sendBody, storeMessages } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const DAY = 86_400_000;
const MARCH_1 = Date.UTC(2026, 2, 1);
// The retention test's own days: its purge, which spans users, touches no other test's messages.
const MARCH_1_2025 = Date.UTC(2025, 2, 1);
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => Math.floor(Date.now() / DAY) * DAY;

describe('GET /user/stats (docs/api.md#reading-back)', () => {
  let t: TestApp;
  const userId = newUserId('stats');
  const stats = (query: Record<string, string> = {}, user = userId) =>
    t.http.get('/user/stats').query(query).set(bearer(user));

  /** Each day's byStatus equals the list's total for that day and status, and a count of the rows. */
  async function expectExact(
    user: string,
    first: number,
    last: number,
  ): Promise<Record<string, Record<MessageStatus, number>>> {
    const { body } = await stats({ startDate: dayText(first), endDate: dayText(last) }, user).expect(200);
    const byDay: Record<string, Record<MessageStatus, number>> = {};
    for (const day of body.days) {
      byDay[day.date] = day.byStatus;
      expect(Object.keys(day.byStatus).sort()).toEqual([...MESSAGE_STATUSES].sort());
      const rows: { status: MessageStatus; n: number }[] = await t.db.query(
        `SELECT status, count(*)::int AS n FROM messages
         WHERE user_id = $1 AND sent_at >= $2::date AND sent_at < $2::date + 1 GROUP BY status`,
        [user, day.date],
      );
      const counted = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0]));
      const listed: Record<string, number> = {};
      for (const status of MESSAGE_STATUSES) {
        const list = await t.http
          .get('/user/messages')
          .query({ startDate: day.date, endDate: day.date, statuses: status, take: 1 })
          .set(bearer(user))
          .expect(200);
        listed[status] = list.body.total;
      }
      expect({ date: day.date, byStatus: day.byStatus }).toEqual({ date: day.date, byStatus: counted });
      expect({ date: day.date, byStatus: day.byStatus }).toEqual({ date: day.date, byStatus: listed });
      expect(day.accepted).toBe(Object.values(counted).reduce((a, b) => a + b, 0));
      // The day's recipients by fate: what its messages (fewer than 100 a day here) say of theirs.
      const { body: page } = await t.http
        .get('/user/messages')
        .query({ startDate: day.date, endDate: day.date, take: 100 })
        .set(bearer(user))
        .expect(200);
      const fates: Record<string, number> = Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, 0]));
      for (const message of page.messages) for (const r of message.recipients) fates[r.status]++;
      expect({ date: day.date, recipients: day.recipients }).toEqual({ date: day.date, recipients: fates });
    }
    return byDay;
  }

  /** Messages around March 1st–3rd (2026 by default), of several statuses, on either side of two midnights. */
  async function seed(user: string, base = MARCH_1): Promise<void> {
    const at = (ms: number, status: MessageStatus) => ({
      sentAt: new Date(ms),
      status,
      scheduledAt: status === 'scheduled' ? new Date(ms + 400 * DAY) : null,
    });
    await storeMessages(t.db, user, [
      ...(['sent', 'sent', 'sent', 'bounced', 'complained', 'failed'] as const).map((s) => at(base + 10 * 3600_000, s)),
      // Either side of midnight UTC: the last and the first millisecond of two days.
      at(base + DAY - 1, 'sent'),
      at(base + DAY - 1, 'deferred'),
      at(base + DAY, 'bounced'),
      at(base + DAY, 'queued'),
      at(base + DAY, 'scheduled'),
      at(base + 2 * DAY + 5 * 3600_000, 'canceled'),
      at(base + 2 * DAY + 5 * 3600_000, 'suppressed'),
    ]);
    // Each recipient in the fate its message's status implies, as delivery and reports leave them
    // (the failed one refused by no server: neither handed over nor bounced).
    await t.db.query(
      `UPDATE messages SET recipient_fates = (
         SELECT jsonb_agg(f || jsonb_build_object('status', CASE WHEN status IN ('queued', 'scheduled', 'sending') THEN 'pending' ELSE status END))
         FROM jsonb_array_elements(recipient_fates) f)
       WHERE user_id = $1`,
      [user],
    );
  }

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' }, { isolatedDatabase: true });
    await seed(userId);
  }, 60_000);
  afterAll(() => t?.close());

  it('counts by the UTC day of acceptance, each side of midnight, every day present, with totals and rates', async () => {
    const byDay = await expectExact(userId, MARCH_1 - DAY, MARCH_1 + 3 * DAY);
    expect(Object.keys(byDay)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    expect(byDay['2026-03-01']).toMatchObject({ sent: 4, bounced: 1, complained: 1, failed: 1, deferred: 1 });
    expect(byDay['2026-03-02']).toMatchObject({ bounced: 1, queued: 1, scheduled: 1, sent: 0 });

    const { body } = await stats({ startDate: '2026-03-01', endDate: '2026-03-03' }).expect(200);
    expect(body).toMatchObject({
      startDate: '2026-03-01',
      endDate: '2026-03-03',
      totals: {
        accepted: 13,
        byStatus: { sent: 4, bounced: 2, complained: 1 },
        recipients: {
          sent: 4,
          bounced: 2,
          complained: 1,
          failed: 1,
          pending: 2,
          deferred: 1,
          canceled: 1,
          suppressed: 1,
        },
      },
      // Over recipients: 2 bounced of the 7 handed over, 1 complaint of the 7 accepted.
      rates: { delivered: 7, bounceRate: 2 / 7, complaintRate: 1 / 7 },
    });
  });

  it('stays exact after status changes, retention and a cancel', async () => {
    const userId = newUserId('stats-changes');
    await seed(userId, MARCH_1_2025);
    // Status changes, as the lifecycle's statements make them (the triggers count any UPDATE).
    await t.db.query(
      `UPDATE messages SET status = 'bounced' WHERE id = (SELECT id FROM messages WHERE user_id = $1 AND status = 'sent' AND sent_at = $2 LIMIT 1)`,
      [userId, new Date(MARCH_1_2025 + 10 * 3600_000)],
    );
    await t.db.query(`UPDATE messages SET status = 'sent' WHERE user_id = $1 AND status = 'deferred'`, [userId]);
    await expectExact(userId, MARCH_1_2025, MARCH_1_2025 + 2 * DAY);

    // Retention deletes the finished messages of March 1st; the queued one of the 2nd stays.
    const { deleted } = await t.app.get(MessageRetention).purgeBatch(new Date(MARCH_1_2025 + DAY));
    expect(deleted).toBe(8);
    const byDay = await expectExact(userId, MARCH_1_2025, MARCH_1_2025 + 2 * DAY);
    expect(Object.values(byDay['2025-03-01']).every((n) => n === 0)).toBe(true);
    expect(byDay['2025-03-02']).toMatchObject({ queued: 1, scheduled: 1, bounced: 1 });

    // Sends today, one of them scheduled and then canceled.
    await t.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
    const scheduled = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ scheduledAt: new Date(Date.now() + 3 * DAY).toISOString() }))
      .expect(201);
    expect((await expectExact(userId, today(), today()))[dayText(today())]).toMatchObject({ queued: 1, scheduled: 1 });
    await t.http.post(`/user/messages/${scheduled.body.id}/cancel`).set(bearer(userId)).expect(200);
    expect((await expectExact(userId, today(), today()))[dayText(today())]).toMatchObject({
      queued: 1,
      scheduled: 0,
      canceled: 1,
    });
  });

  it('defaults to the last 30 UTC days to today', async () => {
    const { body } = await stats().expect(200);
    expect(body.days).toHaveLength(30);
    expect([body.startDate, body.endDate]).toEqual([dayText(today() - 29 * DAY), dayText(today())]);
    expect(body.days.map((d: { date: string }) => d.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => dayText(today() - (29 - i) * DAY)),
    );
  });

  it('takes 366 days and refuses 367, from either end', async () => {
    const userId = newUserId('stats-year');
    // The first and last millisecond of the 366 days, and one millisecond beyond each.
    const [first, last] = [Date.UTC(2025, 2, 2), Date.UTC(2026, 2, 3) - 1];
    await storeMessages(
      t.db,
      userId,
      [first - 1, first, last, last + 1].map((ms) => ({ sentAt: new Date(ms) })),
    );
    const year = await stats({ startDate: '2025-03-02', endDate: '2026-03-02' }, userId).expect(200);
    expect(year.body.days).toHaveLength(366);
    expect([year.body.days[0].accepted, year.body.days[365].accepted, year.body.totals.accepted]).toEqual([1, 1, 2]);

    const refused = await stats({ startDate: '2025-03-01', endDate: '2026-03-02' }).expect(400);
    expect(refused.body.errors).toEqual([{ field: 'endDate', message: expect.stringContaining('366 days') }]);

    await stats({ startDate: dayText(today() - 365 * DAY) }).expect(200);
    const tooEarly = await stats({ startDate: dayText(today() - 366 * DAY) }).expect(400);
    expect(tooEarly.body.errors).toEqual([{ field: 'startDate', message: expect.stringContaining('366 days') }]);
  });

  it('takes a date-time with an offset as the UTC day it falls on; refuses an end before the start', async () => {
    const { body } = await stats({ startDate: '2026-03-01T23:30:00-01:00', endDate: '2026-03-02T00:30:00Z' }).expect(
      200,
    );
    expect([body.startDate, body.endDate, body.days.length]).toEqual(['2026-03-02', '2026-03-02', 1]);

    const refused = await stats({ startDate: '2026-03-02', endDate: '2026-03-01' }).expect(400);
    expect(refused.body.errors).toEqual([{ field: 'endDate', message: 'must not be before startDate' }]);
  });

  it("shows another user none of this user's messages", async () => {
    const { body } = await stats({ startDate: '2026-03-01', endDate: '2026-03-03' }, newUserId('stranger')).expect(200);
    expect(body.totals.accepted).toBe(0);
    expect(body.rates).toEqual({ delivered: 0, bounceRate: null, complaintRate: null });
  });
});
