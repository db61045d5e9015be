// Recipients' fates across delivery attempts (docs/delivery-and-deliverability.md#statuses "Recipients", #webhooks), against a real SMTP sink,
// one copy per recipient (BOUNCE_DOMAIN) and one transaction for all: a copy accepted, one refused
// for good and one refused for now then accepted; one refused for now to the last attempt; and a
// webhook event retried after the message moved on, whose every attempt carries the fates of its change.
import { randomUUID } from 'node:crypto';
import type { AddressObject } from 'mailparser';
import type { ReceivedMail } from '../../support/smtp-sink';
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitFor, waitForStatus } from '../../support/wait-for';
import { WebhookReceiver } from '../../support/webhook-receiver';

const TIMEOUT = 60_000;
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
type Fate = { email: string; type: string; status: string; detail: string | null };
type Message = { id: string; status: string; recipients: Fate[] };

for (const mode of ['one transaction', 'one copy per recipient'] as const) {
  describe(`recipient fates across attempts, ${mode}`, () => {
    const env: Record<string, string> = {
      DELIVERY_RETRY_DELAYS: '1',
      WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    if (mode === 'one copy per recipient') env.BOUNCE_DOMAIN = 'bounces.example.test';
    const { t, sink } = deliveringApp(env);
    const receiver = new WebhookReceiver();
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> =>
      (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
    const suppressions = async (userId: string): Promise<{ email: string; reason: string }[]> =>
      (await t.http.get('/user/suppressions').set(bearer(userId)).expect(200)).body.suppressions;
    const fates = (message: Message) => message.recipients.map((r) => [r.email, r.status]);
    const deliveredTo = (id: string) => sink.acceptedFor(id).flatMap((m) => m.to);

    it(
      'one accepted, one refused 550 5.1.1 and one refused for now then accepted: each delivered once, the refused one suppressed',
      async () => {
        const userId = newUserId('retries');
        const [ok, gone, busy] = [address('ok'), address('gone'), address('busy')];
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
        sink.greylist.set(busy, 1);
        const path = `/hook-${randomUUID()}`;
        const accepted = await send(userId, {
          to: [ok],
          cc: [gone],
          bcc: [busy],
          webhook: { url: receiver.url(path), status: ['deferred', 'sent'] },
        });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(fates(sent)).toEqual([
          [ok, 'sent'],
          [gone, 'failed'],
          [busy, 'sent'],
        ]);
        expect(deliveredTo(accepted.id).sort()).toEqual([ok, busy].sort());
        // Each mail's To header is the message's, Bcc never among its headers, the retry's too (sent to busy alone).
        const headers = (mail: ReceivedMail) =>
          [mail.parsed.to, mail.parsed.bcc].map((a) => (a as AddressObject | undefined)?.text);
        expect(sink.acceptedFor(accepted.id).map(headers)).toEqual([
          [ok, undefined],
          [ok, undefined],
        ]);
        expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
        // Each event shows the recipients as its change left them.
        await receiver.waitFor(() => receiver.on(path).length === 2, 'the deferred and sent events');
        const payloads = receiver.on(path).map((r) => JSON.parse(r.rawBody) as { data: { message: Message } });
        expect(payloads.map((p) => [p.data.message.status, fates(p.data.message)])).toEqual([
          [
            'deferred',
            [
              [ok, 'sent'],
              [gone, 'failed'],
              [busy, 'deferred'],
            ],
          ],
          ['sent', fates(sent)],
        ]);
      },
      TIMEOUT,
    );

    it(
      'fails, without suppressing it, a recipient still refused for now at the last attempt; the message is sent for the other',
      async () => {
        const userId = newUserId('retries');
        const [ok, busy] = [address('ok'), address('busy')];
        sink.greylist.set(busy, 10);
        const accepted = await send(userId, { to: [ok, busy] });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(fates(sent)).toEqual([
          [ok, 'sent'],
          [busy, 'failed'],
        ]);
        expect(sent.recipients[1].detail).toContain('451');
        expect(deliveredTo(accepted.id)).toEqual([ok]);
        expect(await suppressions(userId)).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      "retries a webhook event with the same recipients' fates on every attempt, after the message has moved on",
      async () => {
        const userId = newUserId('retries');
        const [ok, busy] = [address('ok'), address('busy')];
        sink.greylist.set(busy, 1);
        const path = `/hook-${randomUUID()}`;
        let sentSeen = false;
        // The deferred event is refused until the message is sent; then taken.
        receiver.reply = (request) =>
          request.path === path && !sentSeen ? { status: 503 } : { status: 200, body: 'ok' };
        const accepted = await send(userId, {
          to: [ok, busy],
          webhook: { url: receiver.url(path), status: ['deferred'] },
        });
        await waitForStatus(t.http, userId, accepted.id, 'sent');
        sentSeen = true;
        await waitFor(() => receiver.on(path).some((r) => r.answered === 200), 'the deferred event taken', 40_000);
        const attempts = receiver.on(path).map((r) => JSON.parse(r.rawBody) as { data: { message: Message } });
        expect(attempts.length).toBeGreaterThan(1);
        for (const attempt of attempts)
          expect([attempt.data.message.status, fates(attempt.data.message)]).toEqual([
            'deferred',
            [
              [ok, 'sent'],
              [busy, 'deferred'],
            ],
          ]);
      },
      TIMEOUT,
    );
  });
}
