import { MessageLifecycle } from '../../../src/messages/lifecycle/message-lifecycle.repository';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { storeMessage, storeMessages } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

/**
 * The guards of docs/delivery-and-deliverability.md#statuses as PostgreSQL applies them, on the lifecycle alone (ROLE=api: no worker
 * moves these messages): which changes a batch makes, the history entry of each, and the outbox
 * row and job of each change a webhook asked for, all in the change's own transaction.
 */
describe('the message lifecycle on PostgreSQL', () => {
  let t: TestApp;
  let lifecycle: MessageLifecycle;

  beforeAll(async () => {
    // A database of its own: its webhook jobs are nobody else's to deliver.
    t = await bootTestApp({}, { isolatedDatabase: true });
    lifecycle = t.app.get(MessageLifecycle);
  });
  afterAll(() => t?.close());

  const claim = async (messageId: string, attempt: number) =>
    (await t.db.transaction((m) => lifecycle.claim(m, [{ messageId, attempt }], {}))).moved.map((moved) => moved.id);
  const finish = async (
    messageId: string,
    attempt: number,
    status: 'sent' | 'deferred' | 'failed',
    detail = `${status} detail`,
  ) =>
    (await t.db.transaction((m) => lifecycle.finish(m, [{ messageId, attempt, status, detail }]))).moved.map(
      (moved) => moved.id,
    );
  const history = async (id: string) =>
    await t.db.query<{ status: string; detail: string | null }[]>(
      `SELECT status, detail FROM message_status_events WHERE message_id = $1 ORDER BY id`,
      [id],
    );
  const stateOf = async (id: string) =>
    (
      await t.db.query<{ status: string; attempts: number }[]>(
        `SELECT status, delivery_attempts AS attempts FROM messages WHERE id = $1`,
        [id],
      )
    )[0];

  it('moves a message only along docs/delivery-and-deliverability.md#statuses, for the right attempt, with one history entry per move', async () => {
    const { id } = await storeMessage(t.db, newUserId());

    expect(await claim(id, 2)).toEqual([]);
    expect(await claim(id, 1)).toEqual([id]);
    // Its job came back: the same attempt again.
    expect(await claim(id, 1)).toEqual([id]);
    // A late outcome of another attempt.
    expect(await finish(id, 2, 'sent')).toEqual([]);
    expect(await finish(id, 1, 'deferred', '421 try later')).toEqual([id]);
    expect(await finish(id, 1, 'sent')).toEqual([]);
    expect(await claim(id, 3)).toEqual([]);
    expect(await claim(id, 2)).toEqual([id]);
    expect(await finish(id, 2, 'failed', '550 no such user')).toEqual([id]);
    // Final: no attempt, duplicate or next, moves it again.
    expect(await claim(id, 2)).toEqual([]);
    expect(await claim(id, 3)).toEqual([]);
    expect(await finish(id, 2, 'sent')).toEqual([]);

    expect(await stateOf(id)).toEqual({ status: 'failed', attempts: 2 });
    expect(await history(id)).toEqual([
      { status: 'queued', detail: null },
      { status: 'sending', detail: null },
      { status: 'sending', detail: null },
      { status: 'deferred', detail: '421 try later' },
      { status: 'sending', detail: 'attempt 2' },
      { status: 'failed', detail: '550 no such user' },
    ]);
  });

  it('refuses, in SQL, a target the table does not list', async () => {
    const { id } = await storeMessage(t.db, newUserId());
    await claim(id, 1);

    const moved = await t.db.transaction((m) =>
      lifecycle.finish(m, [{ messageId: id, attempt: 1, status: 'queued' as never, detail: 'x' }]),
    );

    expect(moved).toEqual({ moved: [], outboxEventIds: [] });
    expect(await stateOf(id)).toEqual({ status: 'sending', attempts: 1 });
  });

  it('changes a batch in one call, each message by its own guard', async () => {
    const [a, b, c] = await storeMessages(t.db, newUserId(), [{}, {}, {}]);
    await claim(c.id, 1);

    const { moved } = await t.db.transaction((m) =>
      lifecycle.claim<{ subject: string }>(
        m,
        [
          { messageId: a.id, attempt: 1 },
          { messageId: b.id, attempt: 2 },
          { messageId: c.id, attempt: 1 },
        ],
        { subject: 'm.subject' },
      ),
    );

    expect(
      moved
        .map(({ id, status, attempt, subject }) => ({ id, status, attempt, subject }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    ).toEqual(
      [a, c]
        .map(({ id, subject }) => ({ id, status: 'sending', attempt: 1, subject }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(await stateOf(b.id)).toEqual({ status: 'queued', attempts: 0 });
  });

  it('writes an outbox row and queues its job for each change the webhook selects, numbered by the change', async () => {
    const userId = newUserId();
    const [every, onlySent] = await storeMessages(t.db, userId, [
      { webhookUrl: 'https://hooks.example.com/every', webhookStatuses: [] },
      { webhookUrl: 'https://hooks.example.com/sent', webhookStatuses: ['sent'] },
    ]);

    const claimed = await t.db.transaction((m) =>
      lifecycle.claim(
        m,
        [every, onlySent].map(({ id }) => ({ messageId: id, attempt: 1 })),
        {},
      ),
    );
    const finished = await t.db.transaction((m) =>
      lifecycle.finish(
        m,
        [every, onlySent].map(({ id }) => ({ messageId: id, attempt: 1, status: 'sent' as const, detail: '250 ok' })),
      ),
    );

    const events: { id: string; message_id: string; status: string; sequence: number; url: string }[] =
      await t.db.query(
        `SELECT id, message_id, status, sequence, url FROM webhook_events WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, sequence`,
        [[every.id, onlySent.id]],
      );
    const byMessage = (id: string) =>
      events.filter((e) => e.message_id === id).map(({ status, sequence, url }) => ({ status, sequence, url }));
    // A message's events are numbered by its status changes, acceptance the first.
    expect(byMessage(every.id)).toEqual([
      { status: 'queued', sequence: 1, url: 'https://hooks.example.com/every' },
      { status: 'sending', sequence: 2, url: 'https://hooks.example.com/every' },
      { status: 'sent', sequence: 3, url: 'https://hooks.example.com/every' },
    ]);
    expect(byMessage(onlySent.id)).toEqual([{ status: 'sent', sequence: 3, url: 'https://hooks.example.com/sent' }]);

    const changed = events.filter((e) => e.status !== 'queued').map((e) => e.id);
    expect([...claimed.outboxEventIds, ...finished.outboxEventIds].sort()).toEqual([...changed].sort());
    const jobs: { eventId: string }[] = (
      await t.db.query(`SELECT data FROM pgboss.job WHERE name = $1 AND data->>'eventId' = ANY($2::text[])`, [
        WEBHOOK_QUEUE,
        changed,
      ])
    ).map((row: { data: { eventId: string } }) => row.data);
    expect(jobs.map((j) => j.eventId).sort()).toEqual([...changed].sort());
  });

  it('writes nothing of a change whose transaction rolls back: no status, history, outbox row or job', async () => {
    const { id } = await storeMessage(t.db, newUserId(), {
      webhookUrl: 'https://hooks.example.com/h',
      webhookStatuses: ['sending'],
    });

    const rolledBack = new Error('rolled back');
    let eventIds: string[] = [];
    await expect(
      t.db.transaction(async (m) => {
        eventIds = (await lifecycle.claim(m, [{ messageId: id, attempt: 1 }], {})).outboxEventIds;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    expect(eventIds).toHaveLength(1);
    expect(await stateOf(id)).toEqual({ status: 'queued', attempts: 0 });
    expect(await history(id)).toEqual([{ status: 'queued', detail: null }]);
    expect(await t.db.query(`SELECT 1 FROM webhook_events WHERE id = $1`, [eventIds[0]])).toEqual([]);
    expect(await t.db.query(`SELECT 1 FROM pgboss.job WHERE data->>'eventId' = $1`, [eventIds[0]])).toEqual([]);
  });

  describe('recipient fates (docs/delivery-and-deliverability.md#statuses "Recipients")', () => {
    const fatesOf = async (id: string) =>
      (
        await t.db.query<{ fates: { email: string; status: string; detail: string | null }[] }[]>(
          `SELECT recipient_fates AS fates FROM messages WHERE id = $1`,
          [id],
        )
      )[0].fates.map(({ email, status, detail }) => [email, status, detail]);
    const named = async (id: string) =>
      await t.db.query<{ status: string; recipient: string; note: boolean }[]>(
        `SELECT status, recipient, note FROM message_status_events WHERE message_id = $1 AND recipient IS NOT NULL ORDER BY id`,
        [id],
      );
    const fate = (position: number, key: string, status: 'sent' | 'failed', detail: string) => ({
      position,
      key,
      status,
      detail,
    });

    it('changes with the attempt that moves the message, never with a late or duplicate one', async () => {
      const { id } = await storeMessage(t.db, newUserId(), { recipients: ['a@example.com', 'b@example.com'] });
      expect(await claim(id, 1)).toEqual([id]);
      const outcome = {
        messageId: id,
        attempt: 1,
        status: 'sent' as const,
        detail: '250 ok',
        fates: [fate(0, 'a@example.com', 'sent', '250 ok'), fate(1, 'b@example.com', 'failed', '550 5.1.1 unknown')],
      };
      await t.db.transaction((m) => lifecycle.finish(m, [outcome]));
      // The same job's outcome again, saying otherwise: the message does not move, nor do its recipients.
      const late = {
        ...outcome,
        fates: [fate(0, 'a@example.com', 'failed', '550 late'), fate(1, 'b@example.com', 'sent', '250 late')],
      };
      expect((await t.db.transaction((m) => lifecycle.finish(m, [late]))).moved).toEqual([]);
      expect(await fatesOf(id)).toEqual([
        ['a@example.com', 'sent', '250 ok'],
        ['b@example.com', 'failed', '550 5.1.1 unknown'],
      ]);
      expect(await named(id)).toEqual([{ status: 'failed', recipient: 'b@example.com', note: true }]);
    });

    it('keeps one fate per recipient when a batch holds the same attempt twice (a job that outlived its lease, recorded in the same group commit as its double)', async () => {
      const { id } = await storeMessage(t.db, newUserId(), { recipients: ['a@example.com', 'b@example.com'] });
      await claim(id, 1);
      const outcome = {
        messageId: id,
        attempt: 1,
        status: 'sent' as const,
        detail: '250 ok',
        fates: [fate(0, 'a@example.com', 'sent', '250 ok'), fate(1, 'b@example.com', 'failed', '550 5.1.1 unknown')],
      };
      // One of the two moves the message (the UPDATE takes one row per message); the other changes nothing.
      expect((await t.db.transaction((m) => lifecycle.finish(m, [outcome, { ...outcome }]))).moved).toHaveLength(1);
      expect(await fatesOf(id)).toEqual([
        ['a@example.com', 'sent', '250 ok'],
        ['b@example.com', 'failed', '550 5.1.1 unknown'],
      ]);
      expect(await named(id)).toEqual([{ status: 'failed', recipient: 'b@example.com', note: true }]);
    });

    it('bounces a second recipient of an already bounced message, and a complaint outranks a bounce', async () => {
      const { id } = await storeMessage(t.db, newUserId(), { recipients: ['a@example.com', 'b@example.com'] });
      await claim(id, 1);
      await finish(id, 1, 'sent');
      const report = (recipient: string, position: number) => ({
        messageId: id,
        detail: `550 5.1.1 ${recipient}`,
        recipient,
        position,
      });
      expect(await t.db.transaction((m) => lifecycle.bounce(m, report('a@example.com', 0)))).toBeDefined();
      // The message is bounced already: it does not move, the second recipient does.
      expect(await t.db.transaction((m) => lifecycle.bounce(m, report('b@example.com', 1)))).toBeUndefined();
      await t.db.transaction((m) => lifecycle.complain(m, { ...report('a@example.com', 0), detail: 'abuse' }));
      // A complained recipient stays so.
      await t.db.transaction((m) => lifecycle.bounce(m, { ...report('a@example.com', 0), detail: 'late bounce' }));
      expect(await fatesOf(id)).toEqual([
        ['a@example.com', 'complained', 'abuse'],
        ['b@example.com', 'bounced', '550 5.1.1 b@example.com'],
      ]);
      expect(await stateOf(id)).toMatchObject({ status: 'complained' });
    });
  });
});
