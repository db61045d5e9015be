import { MigrationInterface, QueryRunner } from 'typeorm';
import { DataCipher } from '../../data-cipher';
import { dataEncryptionKeyOf } from '../migration-context';

/**
 * The purpose EndpointSecretCipher seals endpoint secrets under. Written out here, not imported: a
 * migration is frozen in time (test/medium/platform/sealed-endpoint-secrets-migration.e2e-spec.ts proves the
 * service opens what this wrote).
 */
const PURPOSE = 'mailroom webhook endpoint secret';
const ROWS_PER_STATEMENT = 1_000;

type Row = { id: string; secret: Buffer; previous_secret: Buffer | null };

/**
 * Webhook endpoint secrets encrypted at rest, as DKIM keys are: `secret` and `previous_secret`
 * become AES-256-GCM ciphertext (DataCipher, bound to the endpoint's id) under a key derived from
 * DATA_ENCRYPTION_KEY. The rows written in plain text are sealed here, in the migration's
 * transaction, so that none is left readable.
 */
export class SealedEndpointSecrets1765209600000 implements MigrationInterface {
  name = 'SealedEndpointSecrets1765209600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE webhook_endpoints
         ALTER COLUMN secret TYPE bytea USING convert_to(secret, 'UTF8'),
         ALTER COLUMN previous_secret TYPE bytea USING convert_to(previous_secret, 'UTF8')`,
    );
    await rewriteEach(db, (cipher, value, id) => cipher.seal(value, id));
  }

  async down(db: QueryRunner): Promise<void> {
    await rewriteEach(db, (cipher, value, id) => cipher.open(value, id));
    await db.query(
      `ALTER TABLE webhook_endpoints
         ALTER COLUMN secret TYPE text USING convert_from(secret, 'UTF8'),
         ALTER COLUMN previous_secret TYPE text USING convert_from(previous_secret, 'UTF8')`,
    );
  }
}

/** Rewrites every endpoint's secrets through `change`, by id order, ROWS_PER_STATEMENT at a time. */
async function rewriteEach(
  db: QueryRunner,
  change: (cipher: DataCipher, value: Buffer, id: string) => Buffer,
): Promise<void> {
  let cipher: DataCipher | undefined;
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const rows = (await db.query(
      `SELECT id, secret, previous_secret FROM webhook_endpoints WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, ROWS_PER_STATEMENT],
    )) as Row[];
    if (rows.length === 0) return;
    // Only a database that has endpoints needs the key.
    cipher ??= new DataCipher(dataEncryptionKeyOf(db), PURPOSE);
    await db.query(
      `UPDATE webhook_endpoints e SET secret = r.secret, previous_secret = r.previous_secret
       FROM unnest($1::uuid[], $2::bytea[], $3::bytea[]) AS r(id, secret, previous_secret) WHERE e.id = r.id`,
      [
        rows.map((row) => row.id),
        rows.map((row) => change(cipher!, row.secret, row.id)),
        rows.map((row) => row.previous_secret && change(cipher!, row.previous_secret, row.id)),
      ],
    );
    after = rows[rows.length - 1].id;
  }
}
