import { rmSync } from 'node:fs';
import { Client } from 'pg';
import type { TestDatabaseState } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { testDatabase?: TestDatabaseState }).testDatabase;
  if (state?.embedded) {
    await state.embedded.server.stop();
    rmSync(state.embedded.dataDir, { recursive: true, force: true });
  }
  // The embedded server's folder went with it; on another server both databases are dropped.
  for (const database of state?.dropUrl ? [state.template, state.dropUrl] : []) {
    if (!database) continue;
    const client = new Client({ connectionString: database.maintenanceUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
    await client.end();
  }
}
