// Every message of a batch is delivered (docs/api.md#sending, docs/delivery-and-deliverability.md#statuses): one batch, one transaction, as many deliveries.
import { deliveringApp } from '../../support/delivering-app';
import { waitForStatus } from '../../support/wait-for';
import { newUserId } from '../../support/tokens';
import { batchOf, sendBatch } from '../../support/batch/batch-support';

describe('delivery of a batch', () => {
  const { t, sink } = deliveringApp({ RATE_LIMIT_PER_MINUTE: '100000' });

  it('delivers every message of a batch through SMTP, each to its own recipients with its own subject', async () => {
    const userId = newUserId();
    const messages = batchOf(20);

    const { body } = await sendBatch(t.http, userId, messages).expect(201);
    const ids: string[] = body.messages.map((m: { id: string }) => m.id);
    await sink.waitUntil(() => ids.every((id) => sink.acceptedFor(id).length === 1), 30_000);

    for (const [i, id] of ids.entries()) {
      const [mail] = sink.acceptedFor(id);
      expect({ to: mail.to, subject: mail.parsed.subject, from: mail.parsed.from?.value[0].address }).toEqual({
        to: messages[i].to,
        subject: messages[i].subject,
        from: 'billing@example.com',
      });
      await waitForStatus(t.http, userId, id, 'sent');
    }
  });
});
