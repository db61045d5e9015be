import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import { addressKey } from '../src/platform/mail/addresses';
import { senderIdFor } from '../src/messages/addresses';
import { DELIVERY_QUEUE } from '../src/platform/queue/delivery-queue';
import { SEND_BODY } from './raw-send';

export const BATCH_SIZE = 100;
const USER = 'bench-copy';

/** A value in COPY's text format: \N for null, and the four characters it escapes. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = Array.isArray(value)
    ? `{${value.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`
    : typeof value === 'object'
      ? JSON.stringify(value)
      : // eslint-disable-next-line @typescript-eslint/no-base-to-string -- arrays and objects took the branches above: a primitive is left
        String(value);
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

async function copy(client: Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const text = rows.map((row) => row.map(field).join('\t')).join('\n') + '\n';
  await pipeline(Readable.from([text]), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}

/**
 * The database's own ceiling for storing batches on this machine: the rows a batch of 100 sends
 * writes (messages, recipients, first history entries and pg-boss delivery jobs with the queue's
 * own settings), each table loaded with COPY, one transaction per batch, from `clients` clients
 * for `seconds`. Returns messages per second.
 */
export async function copyBatchCeiling(url: string, clients: number, seconds: number): Promise<number> {
  const setup = new Client({ connectionString: url });
  await setup.connect();
  const senderId = senderIdFor(USER, SEND_BODY.sender);
  await setup.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
    senderId,
    USER,
    addressKey(SEND_BODY.sender),
  ]);
  const {
    rows: [queue],
  } = await setup.query(
    `SELECT policy, retry_limit, retry_delay, retry_backoff, expire_seconds FROM pgboss.queue WHERE name = $1`,
    [DELIVERY_QUEUE],
  );
  await setup.end();
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        while (performance.now() < deadline) {
          const sentAt = new Date().toISOString();
          const ids = Array.from({ length: BATCH_SIZE }, () => uuidv7());
          await client.query('BEGIN');
          await copy(
            client,
            'messages',
            [
              'id',
              'user_id',
              'sender_id',
              'sender',
              'recipients',
              'subject',
              'html',
              'status',
              'priority',
              'bulk_sending_id',
              'custom_payload',
              'sent_at',
              'updated_at',
            ],
            ids.map((id) => [
              id,
              USER,
              senderId,
              SEND_BODY.sender,
              SEND_BODY.to,
              SEND_BODY.subject,
              SEND_BODY.html,
              'queued',
              'normal',
              SEND_BODY.bulkSendingId,
              SEND_BODY.customPayload,
              sentAt,
              sentAt,
            ]),
          );
          await copy(
            client,
            'message_recipients',
            ['message_id', 'email', 'user_id', 'sent_at'],
            ids.flatMap((id) => SEND_BODY.to.map((to) => [id, addressKey(to), USER, sentAt])),
          );
          await copy(
            client,
            'message_status_events',
            ['message_id', 'status', 'at'],
            ids.map((id) => [id, 'queued', sentAt]),
          );
          await copy(
            client,
            'pgboss.job',
            ['name', 'data', 'priority', 'retry_limit', 'retry_delay', 'retry_backoff', 'expire_in', 'policy'],
            ids.map((id) => [
              DELIVERY_QUEUE,
              { messageId: id, attempt: 1 },
              1,
              queue.retry_limit,
              queue.retry_delay,
              queue.retry_backoff,
              `${queue.expire_seconds} seconds`,
              queue.policy,
            ]),
          );
          await client.query('COMMIT');
          done += BATCH_SIZE;
        }
      } finally {
        await client.end();
      }
    }),
  );
  return done / seconds;
}
