import { MigrationInterface, QueryRunner } from 'typeorm';

const DAY = `to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Exact message counts kept per user, so that a list's `total` does not cost a scan of every
 * matching row (docs/api.md#routes at millions of messages per user):
 *   status    value = '',        status = the message's status  (no filter, statuses)
 *   day       value = UTC day,   status = the message's status  (date ranges, with statuses)
 *   sender    value = sender_id, status = ''                    (fromEmail)
 *   bulk      value = bulk_sending_id, status = ''              (bulkSending)
 *   recipient value = address,   status = ''                    (toEmail)
 * Triggers append +/- changes to message_count_changes, where concurrent sends never wait for
 * each other's row locks (a hot counter row would serialise every send of a user); a periodic
 * compaction (MessageCountsCompactor) adds them into message_counts. Readers sum both tables in one
 * statement, so a count is exact whether or not the compaction has run.
 */
export class MessageCounts1764086400000 implements MigrationInterface {
  name = 'MessageCounts1764086400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE message_counts (
        user_id text NOT NULL,
        dimension text NOT NULL CHECK (dimension IN ('status', 'day', 'sender', 'bulk', 'recipient')),
        value text NOT NULL,
        status text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (user_id, dimension, value, status)
      )`);
    await db.query(`
      CREATE TABLE message_count_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id text NOT NULL,
        dimension text NOT NULL,
        value text NOT NULL,
        status text NOT NULL,
        delta bigint NOT NULL
      )`);
    await db.query(
      `CREATE INDEX ix_message_count_changes_key ON message_count_changes (user_id, dimension, value, status)`,
    );

    // Statement-level triggers see every row of a statement at once (a COPY of a million rows
    // included) and append one change per group, not one per row.
    await db.query(`
      CREATE FUNCTION count_inserted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, 'status', '', status, count(*) FROM inserted GROUP BY 1, 4
        UNION ALL SELECT user_id, 'day', ${DAY}, status, count(*) FROM inserted GROUP BY 1, 3, 4
        UNION ALL SELECT user_id, 'sender', sender_id::text, '', count(*) FROM inserted GROUP BY 1, 3
        UNION ALL SELECT user_id, 'bulk', bulk_sending_id, '', count(*) FROM inserted WHERE bulk_sending_id IS NOT NULL GROUP BY 1, 3;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_counted AFTER INSERT ON messages
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_messages()`);
    await db.query(`
      CREATE FUNCTION count_status_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, dimension, value, status, sum(delta) FROM (
          SELECT o.user_id, o.status, -1 AS delta, to_char(o.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
          FROM before_update o JOIN after_update n ON n.id = o.id WHERE n.status <> o.status
          UNION ALL
          SELECT n.user_id, n.status, 1, to_char(n.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
          FROM before_update o JOIN after_update n ON n.id = o.id WHERE n.status <> o.status
        ) moved, LATERAL (VALUES ('status', ''), ('day', day)) AS d(dimension, value)
        GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_status_counted AFTER UPDATE ON messages
      REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
      FOR EACH STATEMENT EXECUTE FUNCTION count_status_changes()`);
    await db.query(`
      CREATE FUNCTION count_inserted_recipients() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, 'recipient', email, '', count(*) FROM inserted GROUP BY 1, 3;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER message_recipients_counted AFTER INSERT ON message_recipients
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_recipients()`);

    // The messages stored before this migration.
    await db.query(`
      INSERT INTO message_counts (user_id, dimension, value, status, n)
      SELECT user_id, 'status', '', status, count(*) FROM messages GROUP BY 1, 4
      UNION ALL SELECT user_id, 'day', ${DAY}, status, count(*) FROM messages GROUP BY 1, 3, 4
      UNION ALL SELECT user_id, 'sender', sender_id::text, '', count(*) FROM messages GROUP BY 1, 3
      UNION ALL SELECT user_id, 'bulk', bulk_sending_id, '', count(*) FROM messages WHERE bulk_sending_id IS NOT NULL GROUP BY 1, 3
      UNION ALL SELECT user_id, 'recipient', email, '', count(*) FROM message_recipients GROUP BY 1, 3`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER message_recipients_counted ON message_recipients`);
    await db.query(`DROP TRIGGER messages_status_counted ON messages`);
    await db.query(`DROP TRIGGER messages_counted ON messages`);
    await db.query(`DROP FUNCTION count_inserted_recipients(), count_status_changes(), count_inserted_messages()`);
    await db.query(`DROP TABLE message_count_changes, message_counts`);
  }
}
