import type { QueryRunner } from 'typeorm';

/**
 * What a migration may need beyond SQL, handed over on its query runner's `data` (TypeORM's
 * place for a caller's values): runMigrationsExclusively puts it there. Lazy, so that a
 * migration that does not need the key never makes one.
 */
export interface MigrationContext {
  dataEncryptionKey?: () => string;
}

/**
 * DATA_ENCRYPTION_KEY, for a migration that encrypts or decrypts stored rows: the service's own key
 * at start-up, or the environment's when the TypeORM CLI runs it (`npm run migration:revert`, which
 * hands over no context; docs/operations.md says to set the variable there).
 */
export function dataEncryptionKeyOf(db: QueryRunner, env: NodeJS.ProcessEnv = process.env): string {
  const key = (db.data as MigrationContext | undefined)?.dataEncryptionKey;
  if (key) return key();
  if (env.DATA_ENCRYPTION_KEY) return env.DATA_ENCRYPTION_KEY;
  throw new Error(
    'This migration encrypts or decrypts stored secrets and needs DATA_ENCRYPTION_KEY: set it, or let the service run it at start-up.',
  );
}
