// A message submitted over SMTP (docs/api.md#smtp-submission) has its recipients' fates as a REST send has (docs/delivery-and-deliverability.md#statuses
// "Recipients"): typed by the headers that name them (Bcc: the envelope's others), and following
// what the relay says of each, the submitted bytes sent again alone to one refused for now.
import { randomUUID } from 'node:crypto';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../../support/submission/submission-clients';

type Fate = { email: string; type: string; status: string; detail: string | null };

describe('recipient fates of a submitted message', () => {
  const { t, sink } = deliveringApp({
    SUBMISSION_SMTP_PORT: '0',
    SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    DELIVERY_RETRY_DELAYS: '1',
  });

  it('types each recipient by the header naming it, fails and suppresses one refused 550 5.1.1, and retries one refused for now alone', async () => {
    const userId = newUserId('smtp-fates');
    const { key } = await apiKeyFor(t, userId);
    const [bob, carol, dave] = ['bob', 'carol', 'dave'].map((label) => `${label}-${randomUUID()}@rcpt.example`);
    sink.refuseWith.set(carol, { code: 550, message: '5.1.1 <carol>: Recipient address rejected: User unknown' });
    sink.greylist.set(dave, 1);
    // Its local part in capitals (the client writes the domain in lower case).
    const carolAsWritten = carol.replace(/^[^@]+/, (local) => local.toUpperCase());

    const outcome = await submitWithNodemailer(submissionPort(t), key, {
      from: 'Ada <ada@sender.example>',
      to: `"Bob, B." <${bob}>`,
      cc: carolAsWritten,
      bcc: dave,
      subject: 'Fates',
      text: 'Hello',
    });
    expect(outcome).toMatchObject({ accepted: true });
    const id = outcome.accepted ? outcome.messageId : '';

    const sent = await waitForStatus(t.http, userId, id, 'sent');
    expect(sent.recipients.map((r: Fate) => [r.email, r.type, r.status])).toEqual([
      [bob, 'to', 'sent'],
      [carolAsWritten, 'cc', 'failed'],
      [dave, 'bcc', 'sent'],
    ]);
    expect(sent.recipients[1].detail).toContain('5.1.1');
    const { body } = await t.http.get('/user/suppressions').set(bearer(userId)).expect(200);
    expect(body.suppressions).toEqual([
      expect.objectContaining({ email: carol, reason: 'hard_bounce', messageId: id }),
    ]);
    // Bob once, dave once (his copy alone on the retry), carol never.
    const envelopes = sink.acceptedFor(id).map((m) => m.to.map((to) => to.toLowerCase()).sort());
    expect(envelopes).toEqual([[bob], [dave]]);
  });
});
