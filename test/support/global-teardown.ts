import { rmSync } from 'node:fs';
import { Client } from 'pg';
import type { TestDatabaseState } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { testDatabase?: TestDatabaseState }).testDatabase;
  if (state?.embedded) {
    await state.embedded.server.stop();
    rmSync(state.embedded.dataDir, { recursive: true, force: true });
  }
  if (state?.dropUrl) {
    const client = new Client({ connectionString: state.dropUrl.maintenanceUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${state.dropUrl.name}" WITH (FORCE)`);
    await client.end();
  }
}
