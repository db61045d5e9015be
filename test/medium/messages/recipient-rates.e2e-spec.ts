// GET /user/stats's recipients and rates (docs/api.md#reading-back), against a real SMTP sink: recipients refused
// `550 5.1.1` at RCPT count as bounces over the recipients handed over; a policy refusal is handed
// over without bouncing; a complaint counts over those accepted. Each day's `recipients` equals what
// the list's Messages say of their recipients, in one transaction for all and one copy per recipient.
import { randomUUID } from 'node:crypto';
import { RECIPIENT_STATUSES } from '../../../src/messages/recipient-fates';
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
type Message = { id: string; status: string; recipients: { email: string; status: string }[] };
const today = () => new Date().toISOString().slice(0, 10);

for (const mode of ['one transaction', 'one copy per recipient'] as const) {
  describe(`GET /user/stats: rates by recipient, ${mode} (SMTP sink)`, () => {
    const env: Record<string, string> = { DELIVERY_RETRY_DELAYS: '600', RATE_LIMIT_PER_MINUTE: '1000000' };
    if (mode === 'one copy per recipient') env.BOUNCE_DOMAIN = 'bounces.example.test';
    const { t, sink } = deliveringApp(env);

    const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> =>
      (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
    const stats = async (userId: string) =>
      (await t.http.get('/user/stats').query({ startDate: today(), endDate: today() }).set(bearer(userId)).expect(200))
        .body;

    /** The day's recipients by fate as the list's Messages show them: what the stats must equal. */
    async function listedRecipients(userId: string): Promise<Record<string, number>> {
      const counted: Record<string, number> = Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, 0]));
      for (let page = 1; ; page++) {
        const { body } = await t.http
          .get('/user/messages')
          .query({ startDate: today(), endDate: today(), take: 100, page })
          .set(bearer(userId))
          .expect(200);
        for (const message of body.messages as Message[]) for (const r of message.recipients) counted[r.status]++;
        if (!body.hasNext) return counted;
      }
    }

    it(
      'counts three recipients refused 550 5.1.1 as bounces over those handed over; a policy refusal bounces nothing',
      async () => {
        const userId = newUserId('rates');
        const [gone1, gone2, gone3, blocked] = ['gone1', 'gone2', 'gone3', 'blocked'].map(address);
        for (const gone of [gone1, gone2, gone3]) sink.refuseRecipients.add(gone);
        sink.refuseWith.set(blocked, { code: 550, message: '5.7.1 Rejected by policy' });
        const [ok1, ok2, ok3] = ['ok1', 'ok2', 'ok3'].map(address);

        const first = await send(userId, { to: [ok1, gone1, gone2] });
        const second = await send(userId, { to: [ok2, gone3, blocked] });
        const third = await send(userId, { to: [ok3] });
        for (const { id } of [first, second, third]) await waitForStatus(t.http, userId, id, 'sent');

        const body = await stats(userId);
        expect(body.days).toHaveLength(1);
        expect(Object.keys(body.days[0].recipients).sort()).toEqual([...RECIPIENT_STATUSES].sort());
        expect(body.days[0].recipients).toMatchObject({ sent: 3, failed: 4, pending: 0 });
        expect(body.totals.recipients).toEqual(body.days[0].recipients);
        expect(body.days[0].recipients).toEqual(await listedRecipients(userId));
        // 3 address failures of 7 handed over (3 accepted, 3 unknown, 1 refused by policy).
        expect(body.rates).toEqual({ delivered: 3, bounceRate: 3 / 7, complaintRate: 0 });
        // The suppression list took the three unknown addresses, not the one refused by policy.
        const { body: listed } = await t.http.get('/user/suppressions').set(bearer(userId)).expect(200);
        expect(listed.suppressions.map((s: { email: string }) => s.email).sort()).toEqual([gone1, gone2, gone3].sort());
      },
      TIMEOUT,
    );

    it(
      'has null rates while nothing was handed over, and counts a complaint over the recipients accepted',
      async () => {
        const userId = newUserId('rates-none');
        expect((await stats(userId)).rates).toEqual({ delivered: 0, bounceRate: null, complaintRate: null });
        const accepted = await send(userId, { to: [address('ok')] });
        await waitForStatus(t.http, userId, accepted.id, 'sent');
        // A complaint, as the report reader records one (the lifecycle's statement, docs/delivery-and-deliverability.md).
        await t.db.query(
          `UPDATE messages SET status = 'complained', recipient_fates = jsonb_set(recipient_fates, '{0,status}', '"complained"') WHERE id = $1`,
          [accepted.id],
        );
        const body = await stats(userId);
        expect(body.days[0].recipients).toMatchObject({ sent: 0, complained: 1 });
        expect(body.days[0].recipients).toEqual(await listedRecipients(userId));
        expect(body.rates).toEqual({ delivered: 1, bounceRate: 0, complaintRate: 1 });
      },
      TIMEOUT,
    );
  });
}
