import { MigrationInterface, QueryRunner } from 'typeorm';

const DAY = (row: string) => `to_char(${row}.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const RECIPIENTS = (row: string) =>
  `cardinality(${row}.recipients) + coalesce(cardinality(${row}.cc), 0) + coalesce(cardinality(${row}.bcc), 0)`;
const FATES = (row: string) => `recipient_fate_counts(${row}.recipient_fates, ${row}.status, ${RECIPIENTS(row)})`;
/** A message's recipients moved: its fates changed, or (kept none) its status, from which they are read. */
const MOVED = `(n.recipient_fates IS DISTINCT FROM o.recipient_fates OR (n.recipient_fates = '[]' AND n.status <> o.status))`;

/**
 * Recipients per UTC day of their message's acceptance and their fate now (docs/api.md#reading-back's
 * `recipients` and the rates over recipients), kept in message_counts as the messages' are
 * (MessageCounts1764086400000): dimension `recipient_day`, value the day, status the fate, where a
 * failed recipient the receiving server refused reads `failed:address` (refused for the address
 * itself, docs/delivery-and-deliverability.md: RecipientFate.refused, set at the refusal) or `failed:other`, and one no server
 * answered plain `failed`. A message that kept no fates (`[]`: stored before they were) counts its
 * recipients as the Message shows them, each in the fate its status implies (recipient-fates.ts
 * fatesFromStatus). Recipients failed before this migration carry no refusal kind: they count as
 * `failed`, neither handed over nor bounced.
 */
export class RecipientCounts1765382400000 implements MigrationInterface {
  name = 'RecipientCounts1765382400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_counts DROP CONSTRAINT message_counts_dimension_check`);
    await db.query(`ALTER TABLE message_counts ADD CONSTRAINT message_counts_dimension_check
      CHECK (dimension IN ('status', 'day', 'sender', 'bulk', 'recipient', 'recipient_day'))`);
    await db.query(`
      CREATE FUNCTION recipient_fate_counts(fates jsonb, status text, recipients int)
      RETURNS TABLE (fate text, n bigint) LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE WHEN f ->> 'status' = 'failed' AND f ? 'refused' THEN 'failed:' || (f ->> 'refused') ELSE f ->> 'status' END,
               count(*)
        FROM jsonb_array_elements(fates) f GROUP BY 1
        UNION ALL
        SELECT CASE WHEN status IN ('sent', 'bounced', 'complained') THEN 'sent'
                    WHEN status IN ('deferred', 'failed', 'suppressed', 'canceled') THEN status
                    ELSE 'pending' END, recipients
        WHERE fates = '[]' AND recipients > 0
      $$`);
    await db.query(`
      CREATE FUNCTION count_inserted_recipient_fates() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT i.user_id, 'recipient_day', ${DAY('i')}, c.fate, sum(c.n)
        FROM inserted i, LATERAL ${FATES('i')} c GROUP BY 1, 3, 4;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_recipient_fates_counted AFTER INSERT ON messages
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_recipient_fates()`);
    // Only the messages whose recipients moved: most updates (a claim, a retry's note) move none.
    await db.query(`
      CREATE FUNCTION count_recipient_fate_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, 'recipient_day', day, fate, sum(delta) FROM (
          SELECT o.user_id, ${DAY('o')} AS day, c.fate, -c.n AS delta
          FROM before_update o JOIN after_update n ON n.id = o.id, LATERAL ${FATES('o')} c WHERE ${MOVED}
          UNION ALL
          SELECT n.user_id, ${DAY('n')}, c.fate, c.n
          FROM before_update o JOIN after_update n ON n.id = o.id, LATERAL ${FATES('n')} c WHERE ${MOVED}
        ) moved
        GROUP BY 1, 3, 4 HAVING sum(delta) <> 0;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_recipient_fates_changed AFTER UPDATE ON messages
      REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
      FOR EACH STATEMENT EXECUTE FUNCTION count_recipient_fate_changes()`);
    await db.query(`
      CREATE FUNCTION uncount_deleted_recipient_fates() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT d.user_id, 'recipient_day', ${DAY('d')}, c.fate, -sum(c.n)
        FROM deleted d, LATERAL ${FATES('d')} c GROUP BY 1, 3, 4;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_recipient_fates_uncounted AFTER DELETE ON messages
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION uncount_deleted_recipient_fates()`);

    // The messages stored before: CREATE TRIGGER's lock on messages holds their writers off until
    // this commits, so none is counted twice or missed.
    await db.query(`
      INSERT INTO message_counts (user_id, dimension, value, status, n)
      SELECT m.user_id, 'recipient_day', ${DAY('m')}, c.fate, sum(c.n)
      FROM messages m, LATERAL ${FATES('m')} c GROUP BY 1, 3, 4`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER messages_recipient_fates_uncounted ON messages`);
    await db.query(`DROP TRIGGER messages_recipient_fates_changed ON messages`);
    await db.query(`DROP TRIGGER messages_recipient_fates_counted ON messages`);
    await db.query(
      `DROP FUNCTION uncount_deleted_recipient_fates(), count_recipient_fate_changes(), count_inserted_recipient_fates()`,
    );
    await db.query(`DROP FUNCTION recipient_fate_counts(jsonb, text, int)`);
    await db.query(`DELETE FROM message_count_changes WHERE dimension = 'recipient_day'`);
    await db.query(`DELETE FROM message_counts WHERE dimension = 'recipient_day'`);
    await db.query(`ALTER TABLE message_counts DROP CONSTRAINT message_counts_dimension_check`);
    await db.query(`ALTER TABLE message_counts ADD CONSTRAINT message_counts_dimension_check
      CHECK (dimension IN ('status', 'day', 'sender', 'bulk', 'recipient'))`);
  }
}
