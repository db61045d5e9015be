import fc from 'fast-check';
import { MessageCountsCompactor } from '../../../src/messages/message-counts.compactor';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import { storeMessage } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const STATUSES = MESSAGE_STATUSES;
const SENDERS = ['a@example.com', 'b@example.com'];
const RECIPIENTS = ['x@example.com', 'y@example.com', 'z@example.com'];
// Only ever a bcc recipient, named.
const BLIND = 'w@example.com';
const DAY = 86_400_000;
const FIRST = Date.parse('2026-03-01T00:00:00.000Z');

/**
 * The list's `total` comes from kept counts for most filters (MessageCountsRepository); here it
 * must equal a plain count over the same rows, for any filter, before and after the compaction, and
 * after status changes.
 */
describe('list totals from kept counts', () => {
  let t: TestApp;
  const userId = newUserId();

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' }, { isolatedDatabase: true });
    // 120 messages over 6 days at scattered times, with every status, two senders, three recipients in
    // to or cc (some with display names), and a fourth in bcc alone.
    for (let i = 0; i < 120; i++) {
      await storeMessage(t.db, userId, {
        sentAt: new Date(FIRST + ((i * 7_919_311) % (6 * DAY))),
        status: STATUSES[i % STATUSES.length],
        // Scheduled ones are stored so by the accept itself, a day after their sending.
        scheduledAt:
          STATUSES[i % STATUSES.length] === 'scheduled' ? new Date(FIRST + ((i * 7_919_311) % (6 * DAY)) + DAY) : null,
        sender: SENDERS[i % 2],
        recipients: [RECIPIENTS[i % 3], ...(i % 4 === 0 ? [RECIPIENTS[(i + 1) % 3]] : [])],
        // Odd i only, so never the second to recipient of an i % 4 === 0.
        cc: i % 6 === 1 ? [`Copy Person <${RECIPIENTS[(i + 2) % 3]}>`] : null,
        bcc: i % 7 === 2 ? [`"Blind, Copy" <${BLIND}>`] : null,
        bulkSendingId: i % 5 === 0 ? 'spring' : null,
      });
    }
    await storeMessage(t.db, newUserId(), { sentAt: new Date(FIRST + DAY) }); // someone else's
  }, 60_000);
  afterAll(() => t.close());

  const iso = (ms: number) => new Date(ms).toISOString();
  // Bounds on and between day boundaries: whole days, partial days and single moments.
  const bound = fc.oneof(
    fc.integer({ min: -1, max: 7 }).map((d) => iso(FIRST + d * DAY)),
    fc.integer({ min: -1, max: 7 }).map((d) => iso(FIRST + d * DAY - 1)),
    fc.integer({ min: -DAY, max: 7 * DAY }).map((ms) => iso(FIRST + ms)),
    fc.integer({ min: -1, max: 7 }).map((d) => iso(FIRST + d * DAY).slice(0, 10)),
  );
  const filters = fc.record(
    {
      statuses: fc.subarray([...STATUSES], { minLength: 1 }).map((s) => s.join(',')),
      startDate: bound,
      endDate: bound,
      fromEmail: fc.constantFrom(...SENDERS, 'nobody@example.com'),
      toEmail: fc.constantFrom(...RECIPIENTS, BLIND),
      bulkSending: fc.constantFrom('spring', 'autumn'),
    },
    { requiredKeys: [] },
  );

  async function expectTotalsMatchPlainCounts(runs: number) {
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        const start = filter.startDate && new Date(filter.startDate);
        const end =
          filter.endDate &&
          new Date(filter.endDate.length === 10 ? Date.parse(filter.endDate) + DAY - 1 : filter.endDate);
        if (start && end && start > end) return;
        const response = await t.http.get('/user/messages').query(filter).set(bearer(userId)).expect(200);
        const [{ count }] = await t.db.query(
          `SELECT count(*)::int AS count FROM messages m
           WHERE m.user_id = $1 AND ($2::text[] IS NULL OR m.status = ANY($2)) AND ($3::timestamptz IS NULL OR m.sent_at >= $3)
             AND ($4::timestamptz IS NULL OR m.sent_at <= $4) AND ($5::text IS NULL OR m.sender = $5)
             AND ($6::text IS NULL OR EXISTS (
               SELECT 1 FROM unnest(m.recipients || coalesce(m.cc, '{}') || coalesce(m.bcc, '{}')) AS e WHERE e = $6 OR e LIKE '%<' || $6 || '>'))
             AND ($7::text IS NULL OR m.bulk_sending_id = $7)`,
          [
            userId,
            filter.statuses?.split(',') ?? null,
            start ?? null,
            end ?? null,
            filter.fromEmail ?? null,
            filter.toEmail ?? null,
            filter.bulkSending ?? null,
          ],
        );
        expect(response.body.total).toBe(count);
        expect(response.body.messages).toHaveLength(Math.min(10, count));
      }),
      { numRuns: runs },
    );
  }

  it('equal plain counts while the changes are not compacted yet', async () => {
    const [{ pending }] = await t.db.query(
      `SELECT count(*)::int AS pending FROM message_count_changes WHERE user_id = $1`,
      [userId],
    );
    expect(pending).toBeGreaterThan(0);
    await expectTotalsMatchPlainCounts(150);
  });

  it('equal plain counts after the compaction, and after statuses change', async () => {
    const compactor = t.app.get(MessageCountsCompactor);
    while ((await compactor.compact()) > 0);
    const [{ pending }] = await t.db.query(
      `SELECT count(*)::int AS pending FROM message_count_changes WHERE user_id = $1`,
      [userId],
    );
    expect(pending).toBe(0);
    await expectTotalsMatchPlainCounts(100);

    // Scheduled ones come due, deferred ones are canceled (docs/delivery-and-deliverability.md#statuses).
    await t.db.query(
      `UPDATE messages SET status = CASE status WHEN 'scheduled' THEN 'queued' ELSE 'canceled' END WHERE user_id = $1 AND status IN ('scheduled', 'deferred')`,
      [userId],
    );
    await expectTotalsMatchPlainCounts(100);

    await t.db.query(`UPDATE messages SET status = 'sent' WHERE user_id = $1 AND status IN ('queued', 'deferred')`, [
      userId,
    ]);
    await expectTotalsMatchPlainCounts(100);
  });
});

describe('the count compactor', () => {
  const pending = async (t: TestApp, userId: string): Promise<number> =>
    (await t.db.query(`SELECT count(*)::int AS n FROM message_count_changes WHERE user_id = $1`, [userId]))[0].n;

  it('compacts on its own in a worker process, and not in an API process', async () => {
    // Both run side by side, each on its own database, the API process started first: the worker's
    // compaction is the signal that the API process had as long to compact, and did not.
    const api = await bootTestApp({ ROLE: 'api' }, { isolatedDatabase: true });
    const userId = newUserId();
    try {
      await storeMessage(api.db, userId);
      const worker = await bootTestApp({ ROLE: 'worker' }, { isolatedDatabase: true });
      try {
        await storeMessage(worker.db, userId);
        const deadline = Date.now() + 10_000;
        while ((await pending(worker, userId)) > 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await pending(worker, userId)).toBe(0);
        const [{ total }] = await worker.db.query(
          `SELECT sum(n)::int AS total FROM message_counts WHERE user_id = $1 AND dimension = 'status'`,
          [userId],
        );
        expect(total).toBe(1);
      } finally {
        await worker.close();
      }
      expect(await pending(api, userId)).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  }, 30_000);
});
