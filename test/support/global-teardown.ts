import { Client } from 'pg';
import type { TestDatabaseState } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { testDatabase?: TestDatabaseState }).testDatabase;
  await state?.embedded?.stop();
  if (state?.dropUrl) {
    const client = new Client({ connectionString: state.dropUrl.maintenanceUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${state.dropUrl.name}" WITH (FORCE)`);
    await client.end();
  }
}
