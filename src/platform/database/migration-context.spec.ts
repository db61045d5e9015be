import type { QueryRunner } from 'typeorm';
import { dataEncryptionKeyOf, type MigrationContext } from './migration-context';

describe(dataEncryptionKeyOf.name, () => {
  const runner = (data?: MigrationContext) => ({ data }) as unknown as QueryRunner;

  it("takes the service's key when the service runs the migration", () => {
    expect(dataEncryptionKeyOf(runner({ dataEncryptionKey: () => 'from-the-service' }), {})).toBe('from-the-service');
  });

  it("takes the environment's key when the TypeORM CLI runs it (no context handed over)", () => {
    expect(dataEncryptionKeyOf(runner(), { DATA_ENCRYPTION_KEY: 'from-the-environment' })).toBe('from-the-environment');
  });

  it('refuses, naming the variable, when neither gives one', () => {
    expect(() => dataEncryptionKeyOf(runner(), {})).toThrow('DATA_ENCRYPTION_KEY');
    expect(() => dataEncryptionKeyOf(runner(), { DATA_ENCRYPTION_KEY: '' })).toThrow('DATA_ENCRYPTION_KEY');
  });
});
