import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each API key's first 8 characters (`mr_` and 5 of its random part), shown in the listing so that
 * keys can be told apart (docs/api.md#smtp-submission). Keys made before have none: only their hash was kept, so they
 * stay null rather than get a made-up prefix.
 */
export class ApiKeyPrefix1764604800000 implements MigrationInterface {
  name = 'ApiKeyPrefix1764604800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys ADD COLUMN prefix text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys DROP COLUMN prefix`);
  }
}
