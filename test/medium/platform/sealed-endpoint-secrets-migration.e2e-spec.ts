// The migration that encrypts webhook endpoint secrets at rest (docs/delivery-and-deliverability.md#webhooks, as DKIM keys are), on a
// database of its own migrated up to just before it, holding endpoints written in plain text: after
// it, no secret is readable in its row, and the service's cipher opens each to what it was.
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../../src/platform/config/app-config';
import { MIGRATIONS, runMigrationsExclusively } from '../../../src/platform/database/data-source-options';
import { SealedEndpointSecrets1765209600000 } from '../../../src/platform/database/migrations/1765209600000-sealed-endpoint-secrets';
import { EndpointSecretCipher } from '../../../src/webhooks/endpoints/endpoint-secret-cipher';
import { scratchDatabase } from '../../support/scratch-database';

const KEY = 'a-data-encryption-key-of-32-chars!!';
const secretOf = (fill: number) => `whsec_${Buffer.alloc(32, fill).toString('base64')}`;

describe('migration SealedEndpointSecrets1765209600000', () => {
  const { migratedTo } = scratchDatabase('sealed_secrets');

  it('seals every secret written in plain text, current and previous, so that the service opens them', async () => {
    expect(MIGRATIONS).toContain(SealedEndpointSecrets1765209600000);
    const old = await migratedTo(MIGRATIONS.slice(0, MIGRATIONS.indexOf(SealedEndpointSecrets1765209600000)));
    await old.runMigrations();
    const [rotated, fresh] = [randomUUID(), randomUUID()];
    await old.query(
      `INSERT INTO webhook_endpoints (id, user_id, url, secret, previous_secret, previous_secret_until, created_at)
       VALUES ($1, 'u1', 'https://example.com/a', $3, $4, now() + interval '1 hour', now()),
              ($2, 'u1', 'https://example.com/b', $5, NULL, NULL, now())`,
      [rotated, fresh, secretOf(1), secretOf(2), secretOf(3)],
    );
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    try {
      // Without the key it refuses, and leaves the secrets as they were (its transaction undone).
      await expect(runMigrationsExclusively(current)).rejects.toThrow('DATA_ENCRYPTION_KEY');
      expect(await current.query(`SELECT secret FROM webhook_endpoints ORDER BY secret`)).toEqual([
        { secret: secretOf(1) },
        { secret: secretOf(3) },
      ]);

      await runMigrationsExclusively(current, { dataEncryptionKey: () => KEY });
      const rows: { id: string; secret: Buffer; previous_secret: Buffer | null }[] = await current.query(
        `SELECT id, secret, previous_secret FROM webhook_endpoints`,
      );
      const cipher = new EndpointSecretCipher({ deliverability: { encryptionKey: KEY } } as AppConfig);
      const opened = Object.fromEntries(
        rows.map((row) => [
          row.id,
          [row.secret, row.previous_secret].map((sealed) => sealed && cipher.openSecret(sealed, row.id)),
        ]),
      );
      expect(opened).toEqual({ [rotated]: [secretOf(1), secretOf(2)], [fresh]: [secretOf(3), null] });
      for (const row of rows)
        for (const fill of [1, 2, 3]) {
          expect(row.secret.includes(Buffer.from(secretOf(fill)))).toBe(false);
          expect(row.secret.includes(Buffer.alloc(32, fill))).toBe(false);
        }
    } finally {
      await current.destroy();
    }
  });
});
