import type { QueryRunner } from 'typeorm';

/**
 * What a migration may need beyond SQL, handed over on its query runner's `data` (TypeORM's
 * place for a caller's values): runMigrationsExclusively puts it there. Lazy, so that a
 * migration that does not need the key never makes one.
 */
export interface MigrationContext {
  dataEncryptionKey?: () => string;
}

/** DATA_ENCRYPTION_KEY, for a migration that encrypts or decrypts stored rows. */
export function dataEncryptionKeyOf(db: QueryRunner): string {
  const key = (db.data as MigrationContext | undefined)?.dataEncryptionKey;
  if (!key)
    throw new Error(
      'This migration encrypts stored secrets and needs DATA_ENCRYPTION_KEY: let the service run it at start-up.',
    );
  return key();
}
