import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The message list's free-text search (`q`, docs/api.md#routes): a trigram GIN index over the subject and every
 * recipient as given (to, cc, bcc: display names too), so that `ILIKE '%ada%'` is answered from the
 * index rather than by reading each of the user's messages. pg_trgm ships with PostgreSQL (contrib)
 * and is a trusted extension since 13, so the database's owner may create it. The index expression
 * must be immutable: array_to_string is declared stable only because of other element types' output
 * functions, and for text[] it is not, so the wrapper says immutable. TypeORM's diff does not see
 * expression indexes (its loader reads only column indexes), so the entity does not declare it.
 */
export class MessageSearch1765296000000 implements MigrationInterface {
  name = 'MessageSearch1765296000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await db.query(
      `CREATE FUNCTION message_search_text(subject text, recipients text[], cc text[], bcc text[]) RETURNS text
       LANGUAGE sql IMMUTABLE PARALLEL SAFE
       RETURN subject || ' ' || array_to_string(recipients || coalesce(cc, '{}') || coalesce(bcc, '{}'), ' ')`,
    );
    await db.query(
      `CREATE INDEX ix_messages_search ON messages USING gin (message_search_text(subject, recipients, cc, bcc) gin_trgm_ops)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_messages_search`);
    await db.query(`DROP FUNCTION message_search_text(text, text[], text[], text[])`);
    // The extension stays: another schema in the database may use it.
  }
}
