// The recipients' fates a Message shows from its acceptance on (docs/api.md#sending, docs/delivery-and-deliverability.md#statuses "Recipients"), before
// any delivery (ROLE=api): one per distinct recipient, whatever the spelling of its repeats; the
// same in the 201, its replay, the list and the get; suppressed by the owner's list as the
// entry's scope says, in a batch too; untouched by a cancel.
import { randomUUID } from 'node:crypto';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

type Fate = { email: string; type: string; status: string; detail: string | null; at: string };
type Message = { id: string; status: string; recipients: Fate[] };
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('recipient fates at intake', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ MAX_RECIPIENTS: '50' });
  });
  afterAll(() => t?.close());

  const fates = (message: Message) => message.recipients.map((r) => [r.email, r.type, r.status, r.detail]);
  const suppress = (userId: string, body: Record<string, unknown>) =>
    t.http.post('/user/suppressions').set(bearer(userId)).send(body).expect(201);

  it('keeps one fate per recipient, where it first appears and spelled as first given, whatever case or display name its repeats have', async () => {
    const userId = newUserId('dupes');
    const ada = `Ada-${randomUUID()}@Example.com`;
    const bob = address('bob');
    const { body: accepted } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          to: [`"Lovelace, Ada" <${ada}>`],
          cc: [ada.toLowerCase(), `Bob <${bob.toUpperCase()}>`],
          bcc: [`"A. L." <${ada.toUpperCase()}>`, bob],
        }),
      )
      .expect(201);
    expect(fates(accepted)).toEqual([
      [ada, 'to', 'pending', null],
      [bob.toUpperCase(), 'cc', 'pending', null],
    ]);
    const { body: got } = await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200);
    expect(got.recipients).toEqual(accepted.recipients);
    // toEmail finds it by the dropped spelling of a repeat, in any case.
    const { body: found } = await t.http.get('/user/messages').query({ toEmail: bob }).set(bearer(userId)).expect(200);
    expect(found.messages.map((m: Message) => [m.id, m.recipients])).toEqual([[accepted.id, accepted.recipients]]);
  });

  it('shows MAX_RECIPIENTS fates, to, cc then bcc, a suppressed one among them found by another case', async () => {
    const userId = newUserId('max');
    const [to, cc, bcc] = [20, 20, 10].map((n, list) =>
      Array.from({ length: n }, (_, i) => `"Reader ${list}.${i}, \\"quoted\\"" <${address(`r${list}-${i}`)}>`),
    );
    const listed = bcc[9].slice(bcc[9].indexOf('<') + 1, -1);
    await suppress(userId, { email: listed.toUpperCase() });
    const { body: accepted } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ to, cc, bcc }))
      .expect(201);
    expect(accepted.recipients).toHaveLength(50);
    expect(accepted.recipients.map((r: Fate) => r.type)).toEqual([
      ...Array<string>(20).fill('to'),
      ...Array<string>(20).fill('cc'),
      ...Array<string>(10).fill('bcc'),
    ]);
    expect(accepted.recipients.map((r: Fate) => r.email)).toEqual(
      [...to, ...cc, ...bcc].map((entry) => entry.slice(entry.indexOf('<') + 1, -1)),
    );
    expect(accepted.recipients.filter((r: Fate) => r.status !== 'pending')).toEqual([
      expect.objectContaining({ email: listed, status: 'suppressed', detail: 'manual' }),
    ]);
    // One past the maximum: 400, nothing stored.
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ to, cc, bcc: [...bcc, address('one-more')] }))
      .expect(400);
  });

  it('judges each message of a batch by its own kind of mail, and a replay answers the same fates after the list changed', async () => {
    const userId = newUserId('batch');
    const reader = address('reader');
    await suppress(userId, { email: reader, scope: 'bulk' });
    const batch = {
      messages: [sendBody({ to: [reader] }), sendBody({ to: [reader], bulkSendingId: 'spring' })],
    };
    const key = `batch-${randomUUID()}`;
    const { body: first } = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .set('Idempotency-Key', key)
      .send(batch)
      .expect(201);
    expect(first.messages.map((m: Message) => fates(m))).toEqual([
      [[reader, 'to', 'pending', null]],
      [[reader, 'to', 'suppressed', 'manual']],
    ]);
    await t.http.delete(`/user/suppressions/${reader}`).set(bearer(userId)).expect(204);
    const replay = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .set('Idempotency-Key', key)
      .send(batch)
      .expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first);
  });

  it('cancels the recipients not yet accepted, and leaves a suppressed one as it was, when a scheduled message is canceled', async () => {
    const userId = newUserId('cancel');
    const [ok, listed] = [address('ok'), address('listed')];
    await suppress(userId, { email: listed });
    const { body: accepted } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ to: [ok], cc: [listed], scheduledAt: inAnHour() }))
      .expect(201);
    await t.http.post(`/user/messages/${accepted.id}/cancel`).set(bearer(userId)).expect(200);
    const { body: canceled } = await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200);
    expect(canceled.status).toBe('canceled');
    // docs/delivery-and-deliverability.md#statuses: only the recipients not yet accepted become canceled, so none reads pending after it.
    expect(accepted.recipients.map((r: { email: string }) => r.email)).toEqual([ok, listed]);
    expect(canceled.recipients).toEqual([
      {
        ...accepted.recipients[0],
        status: 'canceled',
        detail: 'Canceled by its owner before it was delivered',
        at: expect.any(String),
      },
      accepted.recipients[1],
    ]);
  });
});
