import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MessageCountsCompactor } from '../../../src/messages/message-counts.compactor';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import { MessageRetention, PURGE_LOCK } from '../../../src/messages/message-retention';
import { DeliveryQueue } from '../../../src/platform/queue/delivery-queue';
import { WebhookQueue } from '../../../src/platform/queue/webhook-queue';
import { sendBody, storeMessages } from '../../support/factories';
import { keptAndPlainCounts } from '../../support/kept-counts';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const DAY = 86_400_000;
const FIRST = Date.parse('2026-03-01T00:00:00.000Z');
// Retention 3 days, on 7 March: 1 to 3 March are past the window, 4 to 6 March are kept.
const NOW = new Date(FIRST + 6 * DAY + 12 * 3_600_000);
const CUTOFF = FIRST + 3 * DAY;
const UNFINISHED = ['scheduled', 'queued', 'sending', 'deferred'];

/** How many rows each table holds for these messages (and their webhook events), queue rows included. */
async function rowsOf(db: DataSource, ids: string[], eventIds: string[]): Promise<Record<string, number>> {
  const [rows] = await db.query(
    `SELECT (SELECT count(*) FROM messages WHERE id = ANY($1))::int AS messages,
       (SELECT count(*) FROM message_recipients WHERE message_id = ANY($1))::int AS recipients,
       (SELECT count(*) FROM message_status_events WHERE message_id = ANY($1))::int AS history,
       (SELECT count(*) FROM message_attachments WHERE message_id = ANY($1))::int AS attachments,
       (SELECT count(*) FROM message_mime WHERE message_id = ANY($1))::int AS mime,
       (SELECT count(*) FROM applied_reports WHERE message_id = ANY($1))::int AS reports,
       (SELECT count(*) FROM webhook_events WHERE id = ANY($2))::int AS events,
       (SELECT count(*) FROM webhook_attempts WHERE event_id = ANY($2))::int AS attempts,
       (SELECT count(*) FROM pgboss.job WHERE data->>'messageId' = ANY($1::text[]) OR data->>'eventId' = ANY($2::text[]))::int AS jobs,
       (SELECT count(*) FROM pgboss.archive WHERE data->>'messageId' = ANY($1::text[]) OR data->>'eventId' = ANY($2::text[]))::int AS archived`,
    [ids, eventIds],
  );
  return rows;
}

/** Everything that can hang off a message, for each of a user's messages; half the jobs archived. */
async function hangOffEveryMessage(t: TestApp, userId: string): Promise<void> {
  const messages = `FROM messages WHERE user_id = '${userId}'`;
  await t.db.query(
    `INSERT INTO message_attachments (id, message_id, position, file_name, content_type, size, content)
     SELECT gen_random_uuid(), id, 0, 'a.txt', 'text/plain', 1, '\\x61' ${messages}`,
  );
  await t.db.query(`INSERT INTO message_mime (message_id, content) SELECT id, '\\x61' ${messages}`);
  await t.db.query(
    `INSERT INTO applied_reports SELECT id, 'x@example.com', 'bounce', md5(id::text), sent_at ${messages}`,
  );
  await t.db.query(
    `INSERT INTO webhook_events (id, user_id, message_id, sequence, status, url, state, created_at)
     SELECT gen_random_uuid(), user_id, id, 100, status, 'https://hooks.example.com/', 'delivered', sent_at ${messages}`,
  );
  await t.db.query(
    `INSERT INTO webhook_attempts (event_id, attempted_at, status_code, duration_ms) SELECT id, created_at, 200, 5 FROM webhook_events WHERE user_id = $1`,
    [userId],
  );
  const ids: string[] = (await t.db.query(`SELECT id ${messages}`)).map((r: { id: string }) => r.id);
  const eventIds: string[] = (await t.db.query(`SELECT id FROM webhook_events WHERE user_id = $1`, [userId])).map(
    (r: { id: string }) => r.id,
  );
  await t.db.transaction(async (manager) => {
    await t.app.get(DeliveryQueue).enqueue(
      manager,
      ids.map((messageId) => ({ job: { messageId, attempt: 1 }, priority: 'normal' })),
    );
    await t.app.get(WebhookQueue).enqueue(manager, eventIds);
  });
  // As pg-boss archives done jobs.
  await t.db.query(
    `WITH moved AS (DELETE FROM pgboss.job WHERE (data->>'messageId' = ANY($1) OR data->>'eventId' = ANY($2)) AND id::text < '8' RETURNING *)
     INSERT INTO pgboss.archive SELECT moved.*, now() FROM moved`,
    [ids, eventIds],
  );
}

describe('message retention (MESSAGE_RETENTION_DAYS)', () => {
  let t: TestApp;
  let retention: MessageRetention;
  const userId = newUserId();

  beforeAll(async () => {
    t = await bootTestApp(
      { MESSAGE_RETENTION_DAYS: '3', RATE_LIMIT_PER_MINUTE: '1000000' },
      { isolatedDatabase: true },
    );
    retention = t.app.get(MessageRetention);
  }, 60_000);
  afterAll(() => t.close());

  it('purges the days past the window with every row hanging off their messages, oldest first, resuming where it stopped', async () => {
    // 6 days of 40 messages each at scattered times, every status, two senders, recipients in to, cc
    // and bcc, some in a bulk sending.
    await storeMessages(
      t.db,
      userId,
      Array.from({ length: 240 }, (_, i) => ({
        sentAt: new Date(FIRST + ((i * 7_919_311) % (6 * DAY))),
        status: MESSAGE_STATUSES[i % MESSAGE_STATUSES.length],
        scheduledAt: MESSAGE_STATUSES[i % MESSAGE_STATUSES.length] === 'scheduled' ? new Date(FIRST + 30 * DAY) : null,
        sender: i % 2 ? 'a@example.com' : 'b@example.com',
        recipients: [`r${i % 3}@example.com`],
        cc: i % 4 === 1 ? [`Copy <r${(i + 1) % 3}@example.com>`] : null,
        bcc: i % 5 === 2 ? ['blind@example.com'] : null,
        bulkSendingId: i % 6 === 0 ? 'spring' : null,
      })),
    );
    // Sent at one moment: batches end among them.
    await storeMessages(
      t.db,
      userId,
      Array.from({ length: 12 }, () => ({ sentAt: new Date(FIRST + 2 * DAY), status: 'sent' as const })),
    );
    await hangOffEveryMessage(t, userId);
    const all: { id: string; sent_at: Date; status: string }[] = await t.db.query(
      `SELECT id, sent_at, status FROM messages WHERE user_id = $1 ORDER BY sent_at, id`,
      [userId],
    );
    // An old, finished message whose webhook is still to be posted: kept until it is posted.
    const waiting = all.find((m) => m.sent_at.getTime() < CUTOFF && m.status === 'sent')!;
    await t.db.query(
      `INSERT INTO webhook_events (id, user_id, message_id, sequence, status, url, state, created_at)
       VALUES (gen_random_uuid(), $1, $2, 101, 'sent', 'https://hooks.example.com/', 'pending', $3)`,
      [userId, waiting.id, waiting.sent_at],
    );
    // An old message with a stored upload: the upload is the user's, and stays.
    const [{ id: uploadId }] = await t.db.query(
      `INSERT INTO attachments (id, user_id, file_name, content_type, size, content, created_at)
       VALUES (gen_random_uuid(), $1, 'kept.pdf', 'application/pdf', 1, '\\x25', now()) RETURNING id`,
      [userId],
    );
    const withUpload = all.find((m) => m.sent_at.getTime() < CUTOFF && m.status === 'failed')!;
    await t.db.query(
      `INSERT INTO message_attachments (id, message_id, position, file_name, content_type, size, attachment_id)
       VALUES (gen_random_uuid(), $1, 1, 'kept.pdf', 'application/pdf', 1, $2)`,
      [withUpload.id, uploadId],
    );

    const doomed = all.filter((m) => m.sent_at.getTime() < CUTOFF && !UNFINISHED.includes(m.status) && m !== waiting);
    const kept = all.filter((m) => !doomed.includes(m));
    const eventsOf = async (ms: { id: string }[]) =>
      (await t.db.query(`SELECT id FROM webhook_events WHERE message_id = ANY($1)`, [ms.map((m) => m.id)])).map(
        (r: { id: string }) => r.id,
      );
    const [doomedEvents, keptEvents] = [await eventsOf(doomed), await eventsOf(kept)];
    const keptBefore = await rowsOf(
      t.db,
      kept.map((m) => m.id),
      keptEvents,
    );
    const doomedBefore = await rowsOf(
      t.db,
      doomed.map((m) => m.id),
      doomedEvents,
    );
    expect(doomed.length).toBeGreaterThan(60);
    expect(Math.min(...Object.values(doomedBefore))).toBeGreaterThan(0);

    // Another process purging: this one leaves it alone.
    const other = new Client({ connectionString: t.config.databaseUrl });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock($1, $2)`, PURGE_LOCK);
      expect(await retention.purgeBatch(new Date(CUTOFF))).toEqual({ deleted: 0 });
    } finally {
      await other.end();
    }

    // A purge that stops after its first transaction (a crash): the oldest 25 are gone, counts exact.
    expect((await retention.purgeBatch(new Date(CUTOFF), undefined, 25)).deleted).toBe(25);
    const left: { id: string }[] = await t.db.query(`SELECT id FROM messages WHERE id = ANY($1) ORDER BY sent_at, id`, [
      doomed.map((m) => m.id),
    ]);
    expect(left.map((m) => m.id)).toEqual(doomed.slice(25).map((m) => m.id));
    const midway = await keptAndPlainCounts(t.db, userId);
    expect(midway.kept).toEqual(midway.plain);

    // The next run resumes and finishes, in batches of 7 here; a run after it finds nothing left.
    expect(await retention.purge(NOW, 7)).toBe(doomed.length - 25);
    expect(await retention.purge(NOW)).toBe(0);

    expect(
      await rowsOf(
        t.db,
        doomed.map((m) => m.id),
        doomedEvents,
      ),
    ).toEqual(Object.fromEntries(Object.keys(doomedBefore).map((table) => [table, 0])));
    expect(
      await rowsOf(
        t.db,
        kept.map((m) => m.id),
        keptEvents,
      ),
    ).toEqual(keptBefore);
    const [{ uploads }] = await t.db.query(`SELECT count(*)::int AS uploads FROM attachments WHERE id = $1`, [
      uploadId,
    ]);
    expect(uploads).toBe(1);

    const after = await keptAndPlainCounts(t.db, userId);
    expect(after.kept).toEqual(after.plain);
    expect(after.kept.length).toBeGreaterThan(20);
    const compactor = t.app.get(MessageCountsCompactor);
    while ((await compactor.compact()) > 0);
    const compacted = await keptAndPlainCounts(t.db, userId);
    expect(compacted.kept).toEqual(compacted.plain);
    // The counts of the purged days are zero rows now; deleting them changes no count.
    const zeros = async () =>
      (await t.db.query(`SELECT count(*)::int AS n FROM message_counts WHERE user_id = $1 AND n = 0`, [userId]))[0].n;
    expect(await zeros()).toBeGreaterThan(0);
    await retention.deleteZeroCounts();
    expect(await zeros()).toBe(0);
    const pruned = await keptAndPlainCounts(t.db, userId);
    expect(pruned.kept).toEqual(compacted.kept);

    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(kept.length);
    const { body: oldDays } = await t.http
      .get('/user/messages')
      .query({ endDate: new Date(CUTOFF - 1).toISOString() })
      .set(bearer(userId))
      .expect(200);
    expect(oldDays.total).toBe(kept.filter((m) => m.sent_at.getTime() < CUTOFF).length);
  }, 60_000);

  it('blocks neither sends nor lists while a purge transaction holds its rows', async () => {
    const owner = newUserId();
    const old = await storeMessages(
      t.db,
      owner,
      Array.from({ length: 20 }, (_, i) => ({ sentAt: new Date(FIRST + i * 60_000), status: 'sent' as const })),
    );
    // The purge's transaction stops right after its DELETE, rows locked, until `held` lets it go.
    const held = new Client({ connectionString: t.config.databaseUrl });
    await held.connect();
    await held.query(`SELECT pg_advisory_lock(4242)`);
    await t.db.query(
      `CREATE FUNCTION pause_purge() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NULL; END $$`,
    );
    await t.db.query(
      `CREATE TRIGGER messages_purge_paused AFTER DELETE ON messages FOR EACH STATEMENT EXECUTE FUNCTION pause_purge()`,
    );
    try {
      const purging = retention.purge(NOW);
      // The signal: the purge's backend waits on that lock, inside its DELETE.
      const deadline = Date.now() + 10_000;
      for (let waiting = 0; waiting === 0;) {
        if (Date.now() > deadline) throw new Error('the purge never reached its DELETE');
        [{ waiting }] = await t.db.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event = 'advisory' AND query LIKE '%DELETE FROM messages WHERE id IN%'`,
        );
      }

      const sent = await t.http.post('/sender/send').set(bearer(owner)).send(sendBody()).expect(201);
      const during = await t.http.get('/user/messages').set(bearer(owner)).expect(200);
      expect(during.body.total).toBe(21);
      await t.http.get(`/user/messages/${old[0].id}`).set(bearer(owner)).expect(200);

      await held.query(`SELECT pg_advisory_unlock(4242)`);
      expect(await purging).toBe(20);
      const { body } = await t.http.get('/user/messages').set(bearer(owner)).expect(200);
      expect(body.messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
      expect(body.total).toBe(1);
    } finally {
      await t.db.query(`DROP TRIGGER messages_purge_paused ON messages`);
      await t.db.query(`DROP FUNCTION pause_purge()`);
      await held.end();
    }
  }, 60_000);
});

describe('the retention loop', () => {
  it('purges at the start of a worker process, without being asked', async () => {
    const api = await bootTestApp({}, { isolatedDatabase: true });
    const userId = newUserId();
    try {
      const [old, recent] = await storeMessages(api.db, userId, [
        { sentAt: new Date(Date.now() - 10 * DAY), status: 'sent' },
        { sentAt: new Date(), status: 'sent' },
      ]);
      const exists = async (id: string) =>
        (await api.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = $1`, [id]))[0].n === 1;
      const worker = await bootTestApp({
        ROLE: 'worker',
        DATABASE_URL: api.config.databaseUrl!,
        MESSAGE_RETENTION_DAYS: '1',
      });
      try {
        const deadline = Date.now() + 10_000;
        while ((await exists(old.id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await exists(old.id)).toBe(false);
        expect(await exists(recent.id)).toBe(true);
      } finally {
        await worker.close();
      }
    } finally {
      await api.close();
    }
  }, 60_000);
});
