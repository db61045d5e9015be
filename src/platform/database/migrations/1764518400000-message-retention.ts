import { MigrationInterface, QueryRunner } from 'typeorm';

const DAY = `to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Message retention (MESSAGE_RETENTION_DAYS, MessageRetention): deleting messages keeps the
 * counts of MessageCounts1764086400000 exact, as inserting them does, and the oldest day is found
 * without reading every message.
 */
export class MessageRetention1764518400000 implements MigrationInterface {
  name = 'MessageRetention1764518400000';

  async up(db: QueryRunner): Promise<void> {
    // The purge walks messages by day, oldest first, across users.
    await db.query(`CREATE INDEX ix_messages_sent ON messages (sent_at)`);
    // Statement-level, like the insert triggers: one change per group of deleted rows, appended
    // to message_count_changes, so a purge never waits on (or holds) a hot count row.
    await db.query(`
      CREATE FUNCTION uncount_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, 'status', '', status, -count(*) FROM deleted GROUP BY 1, 4
        UNION ALL SELECT user_id, 'day', ${DAY}, status, -count(*) FROM deleted GROUP BY 1, 3, 4
        UNION ALL SELECT user_id, 'sender', sender_id::text, '', -count(*) FROM deleted GROUP BY 1, 3
        UNION ALL SELECT user_id, 'bulk', bulk_sending_id, '', -count(*) FROM deleted WHERE bulk_sending_id IS NOT NULL GROUP BY 1, 3;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER messages_uncounted AFTER DELETE ON messages
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION uncount_deleted_messages()`);
    await db.query(`
      CREATE FUNCTION uncount_deleted_recipients() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_count_changes (user_id, dimension, value, status, delta)
        SELECT user_id, 'recipient', email, '', -count(*) FROM deleted GROUP BY 1, 3;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER message_recipients_uncounted AFTER DELETE ON message_recipients
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION uncount_deleted_recipients()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER message_recipients_uncounted ON message_recipients`);
    await db.query(`DROP TRIGGER messages_uncounted ON messages`);
    await db.query(`DROP FUNCTION uncount_deleted_recipients(), uncount_deleted_messages()`);
    await db.query(`DROP INDEX ix_messages_sent`);
  }
}
