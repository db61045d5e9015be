// The Message's nextAttemptAt (issue 27): while `deferred`, when the retry is due, DELIVERY_RETRY_DELAYS
// after the deferral; null in every other status. A real SMTP sink answers 4xx.
import { randomUUID } from 'node:crypto';
import { sendBody } from '../../support/factories';
import { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const FIRST_DELAY_S = 3;
const TRY_LATER = { code: 451, message: '4.3.0 Try again later' };

interface Entry {
  status: string;
  at: string;
  detail: string | null;
}
interface Message {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  statusHistory: Entry[];
}

const deferredAt = (message: Message) => Date.parse(message.statusHistory.findLast((e) => e.status === 'deferred')!.at);

describe('nextAttemptAt of a deferred message (ROLE=all, SMTP sink)', () => {
  const sink = new SmtpSink();
  let t: TestApp;
  /** The sink's answer by subject: how many times to answer 4xx before accepting (Infinity: never). */
  const refusals = new Map<string, number>();
  /** When the sink last refused each subject (Date.now()). */
  const refusedAt = new Map<string, number>();

  beforeAll(async () => {
    const port = await sink.start();
    sink.reply = (mail, attempt) => {
      if (attempt > (refusals.get(mail.subject ?? '') ?? 0)) return 'accept';
      refusedAt.set(mail.subject ?? '', Date.now());
      return TRY_LATER;
    };
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: sink.url(port), DELIVERY_RETRY_DELAYS: `${FIRST_DELAY_S},1` },
      { isolatedDatabase: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });

  async function sendRefused(userId: string, times: number): Promise<Message & { subject: string }> {
    const subject = `Refused ${times} times ${randomUUID()}`;
    refusals.set(subject, times);
    const { body } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody({ subject })).expect(201);
    expect(body.nextAttemptAt).toBeNull();
    return { ...(body as Message), subject };
  }

  it('is the deferral plus the first delay while deferred, in the get and the list; null once sent', async () => {
    const userId = newUserId();
    const { id, subject } = await sendRefused(userId, 1);

    const deferred: Message = await waitForStatus(t.http, userId, id, 'deferred');
    const seenAt = Date.now();
    expect(deferred.statusHistory.at(-1)!.detail).toContain('451 4.3.0 Try again later');
    // The deferral's moment is when it was recorded: after the refusal, before the test saw it…
    expect(deferredAt(deferred)).toBeGreaterThanOrEqual(refusedAt.get(subject)!);
    expect(deferredAt(deferred)).toBeLessThanOrEqual(seenAt);
    // …and the next attempt counts from it, however long its statement ran.
    expect(Date.parse(deferred.nextAttemptAt!) - deferredAt(deferred)).toBe(FIRST_DELAY_S * 1000);
    expect(deferred.nextAttemptAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const { body: list } = await t.http.get('/user/messages?statuses=deferred').set(bearer(userId)).expect(200);
    expect(list.messages.map((m: Message) => [m.id, m.nextAttemptAt])).toEqual([[id, deferred.nextAttemptAt]]);

    const sent: Message = await waitForStatus(t.http, userId, id, 'sent');
    expect(sent.nextAttemptAt).toBeNull();
    // The retry job started no earlier than the moment shown.
    const retriedAt = Date.parse(sent.statusHistory.find((e) => e.detail === 'attempt 2')!.at);
    expect(retriedAt).toBeGreaterThanOrEqual(Date.parse(deferred.nextAttemptAt!));
    const { body: after } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(after.messages.map((m: Message) => [m.status, m.nextAttemptAt])).toEqual([['sent', null]]);
  });

  it('is null once the retries run out and the message failed', async () => {
    const userId = newUserId();
    const { id } = await sendRefused(userId, Number.POSITIVE_INFINITY);
    const failed: Message = await waitForStatus(t.http, userId, id, 'failed');
    expect(failed.statusHistory.map((e) => e.status)).toEqual([
      'queued',
      'sending',
      'deferred',
      'sending',
      'deferred',
      'sending',
      'failed',
    ]);
    expect(failed.nextAttemptAt).toBeNull();
  });

  it('is null once a deferred message is canceled', async () => {
    const userId = newUserId();
    const { id } = await sendRefused(userId, Number.POSITIVE_INFINITY);
    const deferred: Message = await waitForStatus(t.http, userId, id, 'deferred');
    expect(deferred.nextAttemptAt).not.toBeNull();
    const { body: canceled } = await t.http.post(`/user/messages/${id}/cancel`).set(bearer(userId)).expect(200);
    expect([canceled.status, canceled.nextAttemptAt]).toEqual(['canceled', null]);
  });
});
