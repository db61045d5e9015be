import { MigrationInterface, QueryRunner } from 'typeorm';
import { addressOf } from '../../common/validation/mailbox';

type Fate = { email: string; type: string; status: string; detail: null; at: string };

/** What an earlier message's status says of its recipients, having kept no fate of theirs. */
const FATE_OF_STATUS: Record<string, string> = {
  sent: 'sent',
  bounced: 'sent',
  complained: 'sent',
  deferred: 'deferred',
  failed: 'failed',
  suppressed: 'suppressed',
};

/**
 * Each recipient's fate (SPEC §5), kept on the message so that the statements that change its
 * status change its recipients too. Messages stored before are given fates from their status (their
 * recipients' own were never kept): sent for a message the relay took (also when it bounced or
 * drew a complaint since: which recipient did is in the history), else as the message, pending
 * before any attempt. The address part is read by the same parser as intake's (addressOf), in JS.
 */
export class RecipientFates1764691200000 implements MigrationInterface {
  name = 'RecipientFates1764691200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN recipient_fates jsonb NOT NULL DEFAULT '[]'`);
    // A webhook event's payload shows the recipients as they stood at its change, on every attempt.
    await db.query(`ALTER TABLE webhook_events ADD COLUMN recipient_fates jsonb`);
    // In id order from where the last batch ended: each batch is one range of the primary key,
    // where a filter on the new column would scan past every row already done (quadratic).
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (await db.query(
        `SELECT id, status, recipients, cc, bcc, updated_at FROM messages WHERE id > $1 ORDER BY id LIMIT 1000`,
        [after],
      )) as {
        id: string;
        status: string;
        recipients: string[];
        cc: string[] | null;
        bcc: string[] | null;
        updated_at: Date;
      }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const fates = rows.map((row) => {
        const status = FATE_OF_STATUS[row.status] ?? 'pending';
        const of = (type: string, list: string[] | null): Fate[] =>
          (list ?? []).map((entry) => ({
            email: addressOf(entry),
            type,
            status,
            detail: null,
            at: row.updated_at.toISOString(),
          }));
        return [...of('to', row.recipients), ...of('cc', row.cc), ...of('bcc', row.bcc)];
      });
      await db.query(
        `UPDATE messages m SET recipient_fates = f.fates
         FROM unnest($1::uuid[], $2::jsonb[]) AS f(id, fates) WHERE m.id = f.id`,
        [rows.map((row) => row.id), fates.map((f) => JSON.stringify(f))],
      );
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_events DROP COLUMN recipient_fates`);
    await db.query(`ALTER TABLE messages DROP COLUMN recipient_fates`);
  }
}
