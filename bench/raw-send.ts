import { initialFates } from '../src/messages/recipient-fates';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { DELIVERY_QUEUE } from '../src/platform/queue/delivery-queue';
import { addressKey } from '../src/platform/mail/addresses';
import { senderIdFor } from '../src/messages/addresses';
import { MessageLifecycle } from '../src/messages/lifecycle/message-lifecycle.repository';
import { WebhookQueue } from '../src/platform/queue/webhook-queue';
import { MESSAGE_FAN_OUT } from '../src/webhooks/events/fan-out.sql';
import { NewMessage } from '../src/messages/messages.repository';
import type { EntityManager } from 'typeorm';

/** A realistic send: two recipients, a page of HTML, a bulk id and a custom payload. */
export const SEND_BODY = {
  subject: 'Your November invoice',
  html: `<html><body><h1>Invoice 2026-11</h1>${'<p>Thank you for your business. Your invoice is attached below.</p>'.repeat(30)}</body></html>`,
  to: ['ada@example.com', 'grace@example.com'],
  sender: 'billing@example.com',
  bulkSendingId: 'november-invoices',
  customPayload: { invoice: '2026-11-0042', customer: 'c-981' },
};

/**
 * The database's own ceiling for accepting sends on this machine: the statements of a send (the
 * message with its sender, recipients and first history entry, then its pg-boss job, in one
 * transaction) run straight through pg from `connections` clients for `seconds`.
 */
export async function rawSendCeiling(url: string, connections: number, seconds: number): Promise<number> {
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
    migrate: false,
  });
  // pg-boss's pool, like any pg pool, lets end() resolve before its connections have closed; the
  // server is stopped next, and its goodbye to a closing connection is not worth a crash.
  boss.on('error', (error: Error & { code?: string }) => error.code === '57P01' || console.error(error));
  await boss.start();
  // Its messages have no webhook, so no outbox events to queue.
  const lifecycle = new MessageLifecycle({ enqueue: async () => {} } as unknown as WebhookQueue, MESSAGE_FAN_OUT);
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      const manager = {
        query: async (sql: string, params: unknown[]) => (await client.query(sql, params)).rows,
      } as unknown as EntityManager;
      try {
        while (performance.now() < deadline) {
          const message = rawMessage();
          await client.query('BEGIN');
          await lifecycle.accept(manager, [message]);
          await boss.send(
            DELIVERY_QUEUE,
            { messageId: message.id, attempt: 1 },
            { priority: 1, db: { executeSql: (text, values) => client.query(text, values) } },
          );
          await client.query('COMMIT');
          done++;
        }
      } finally {
        // Awaited, unlike a pool's end(): the server is stopped next, and a connection it closes
        // first reports an error that nothing would handle.
        await client.end();
      }
    }),
  );
  await boss.stop({ graceful: false, close: true });
  return done / seconds;
}

function rawMessage(): NewMessage {
  const userId = 'bench-raw';
  const sentAt = new Date();
  return {
    id: uuidv7(),
    userId,
    senderId: senderIdFor(userId, SEND_BODY.sender),
    sender: SEND_BODY.sender,
    senderKey: addressKey(SEND_BODY.sender),
    recipients: SEND_BODY.to,
    recipientKeys: SEND_BODY.to.map(addressKey),
    cc: null,
    bcc: null,
    replyTo: null,
    text: null,
    headers: null,
    subject: SEND_BODY.subject,
    html: SEND_BODY.html,
    priority: 'normal',
    bulkSendingId: SEND_BODY.bulkSendingId,
    contactId: null,
    customPayload: SEND_BODY.customPayload,
    webhookUrl: null,
    webhookStatuses: null,
    sentAt,
    scheduledAt: null,
    attachments: [],
    recipientFates: initialFates({ to: SEND_BODY.to, cc: [], bcc: [] }, new Map(), sentAt),
  };
}
