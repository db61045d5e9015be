// The suppress event in the claim's place (docs/delivery-and-deliverability.md#statuses), on the delivery use case without a worker
// (ROLE=api): which jobs end their message suppressed, guarded by the attempt as the claim is.
import { randomUUID } from 'node:crypto';
import { DeliverMessageUseCase } from '../../../src/delivery/deliver-message.use-case';
import { MessageLifecycle } from '../../../src/messages/lifecycle/message-lifecycle.repository';
import { storeMessage } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('the suppression check of a delivery claim', () => {
  let t: TestApp;
  let deliveries: DeliverMessageUseCase;
  let lifecycle: MessageLifecycle;

  beforeAll(async () => {
    // A database of its own: nobody else's worker takes these messages.
    t = await bootTestApp({}, { isolatedDatabase: true });
    deliveries = t.app.get(DeliverMessageUseCase);
    lifecycle = t.app.get(MessageLifecycle);
  });
  afterAll(() => t?.close());

  const suppress = (userId: string, email: string) =>
    t.http.post('/user/suppressions').set(bearer(userId)).send({ email }).expect(201);
  const claimJob = (messageId: string, attempt: number) =>
    deliveries.claim([{ id: randomUUID(), data: { messageId, attempt } }]);
  const stateOf = async (id: string) =>
    (
      await t.db.query<{ status: string; attempts: number }[]>(
        `SELECT status, delivery_attempts AS attempts FROM messages WHERE id = $1`,
        [id],
      )
    )[0];
  const history = async (id: string) =>
    await t.db.query<{ status: string; detail: string | null }[]>(
      `SELECT status, detail FROM message_status_events WHERE message_id = $1 ORDER BY id`,
      [id],
    );

  it('suppresses a job that came back (sending, same attempt) when an entry was added meanwhile', async () => {
    const userId = newUserId('claim-came-back');
    const { id } = await storeMessage(t.db, userId, { recipients: ['ada@example.com'] });
    await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: id, attempt: 1 }], {}));
    await suppress(userId, 'ADA@example.com');

    expect(await claimJob(id, 1)).toEqual([]);

    expect(await stateOf(id)).toEqual({ status: 'suppressed', attempts: 1 });
    expect(await history(id)).toEqual([
      { status: 'queued', detail: null },
      { status: 'sending', detail: null },
      { status: 'suppressed', detail: 'every recipient is suppressed: ada@example.com' },
      // The recipient's own entry, with its reason (docs/delivery-and-deliverability.md#statuses "Recipients").
      { status: 'suppressed', detail: 'manual' },
    ]);
  });

  it('leaves a message alone for a job of another attempt, and suppresses it for the next one', async () => {
    const userId = newUserId('claim-attempts');
    const { id } = await storeMessage(t.db, userId, { recipients: ['grace@example.com'] });
    await suppress(userId, 'grace@example.com');

    expect(await claimJob(id, 2)).toEqual([]);
    expect(await stateOf(id)).toEqual({ status: 'queued', attempts: 0 });

    expect(await claimJob(id, 1)).toEqual([]);
    expect(await stateOf(id)).toEqual({ status: 'suppressed', attempts: 1 });
    // Final: a duplicate job changes nothing more.
    expect(await claimJob(id, 1)).toEqual([]);
    expect((await history(id)).map((e) => e.status)).toEqual(['queued', 'suppressed', 'suppressed']);
  });

  it('claims a partly suppressed message without its suppressed recipients, naming them', async () => {
    const userId = newUserId('claim-partly');
    const { id } = await storeMessage(t.db, userId, {
      recipients: ['eve@example.com', 'Trent <trent@example.com>'],
      cc: ['mallory@example.com'],
    });
    await suppress(userId, 'trent@example.com');
    await suppress(userId, 'mallory@example.com');

    const [claimed] = await claimJob(id, 1);

    expect(claimed.message).toMatchObject({ id, recipients: ['eve@example.com'], cc: [] });
    expect(await history(id)).toEqual([
      { status: 'queued', detail: null },
      { status: 'sending', detail: 'skipped suppressed recipients: mallory@example.com, trent@example.com' },
      // Each suppressed recipient's own entry, in its own fate, with its reason (docs/delivery-and-deliverability.md#statuses "Recipients").
      { status: 'suppressed', detail: 'manual' },
      { status: 'suppressed', detail: 'manual' },
    ]);
    const [{ fates }] = await t.db.query(`SELECT recipient_fates AS fates FROM messages WHERE id = $1`, [id]);
    expect(fates.map((f: { email: string; status: string }) => [f.email, f.status])).toEqual([
      ['eve@example.com', 'pending'],
      ['trent@example.com', 'suppressed'],
      ['mallory@example.com', 'suppressed'],
    ]);
  });
});
