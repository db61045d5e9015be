// The zero-setup database of docs/configuration.md, driven directly (no app): each test starts its own server
// on a fresh DATA_DIR, not the run's shared test database, so that stopping it harms nobody.
// The class runs in a child Node process (see EmbeddedPostgresInChild for why).
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  MIGRATIONS,
  runMigrationsExclusively,
} from '../../src/platform/database/data-source-options';
import { ENTITIES } from '../../src/entities';
import { createDatabaseIfMissing } from '../../src/platform/database/embedded-postgres';
import {
  EmbeddedPostgresInChild,
  exitOf,
  killChild,
  processesMentioning,
  PROJECT_ROOT,
  stopProcessesMentioning,
  TS_NODE,
} from '../support/child-processes';

jest.setTimeout(120_000);

const started: EmbeddedPostgresInChild[] = [];
const dataDirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-embedded-'));
  dataDirs.push(dir);
  return dir;
}

function embeddedIn(dataDir: string): EmbeddedPostgresInChild {
  const server = EmbeddedPostgresInChild.spawn(dataDir);
  started.push(server);
  return server;
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
  for (const dir of dataDirs.splice(0)) {
    await stopProcessesMentioning(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('EmbeddedPostgres in a process with an IPC channel (a jest worker, a fork)', () => {
  it('leaves nothing that keeps the process alive once the server stopped: it exits on its own', async () => {
    const dataDir = freshDataDir();
    const script = `
      require('reflect-metadata');
      const { EmbeddedPostgres } = require(${JSON.stringify(join(PROJECT_ROOT, 'src/platform/database/embedded-postgres'))});
      const server = new EmbeddedPostgres(${JSON.stringify(dataDir)});
      server.start().then(() => server.stop()).then(() => process.send('stopped'));
    `;
    const child = spawn(process.execPath, [...TS_NODE, '-e', script], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    try {
      // The signal to wait from: the server started and stopped, so only what it left can hold the process.
      await new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`exited (${code}) before stopping its server`)));
      });

      expect(await exitOf(child, 15_000)).toEqual({ code: 0, signal: null });
    } finally {
      await killChild(child);
    }
  });
});

describe('EmbeddedPostgres', () => {
  it('starts on loopback and returns the URL of its mailroom database', async () => {
    const dataDir = freshDataDir();

    const url = new URL(await embeddedIn(dataDir).start());

    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe('/mailroom');
    const [row] = await query<{ db: string; addr: string }>(
      url.toString(),
      'SELECT current_database() AS db, inet_server_addr()::text AS addr',
    );
    expect(row).toEqual({ db: 'mailroom', addr: '127.0.0.1/32' });
  });

  it('keeps its password in DATA_DIR/postgres-password, readable by the owner only', async () => {
    const dataDir = freshDataDir();

    const url = new URL(await embeddedIn(dataDir).start());

    const passwordFile = join(dataDir, 'postgres-password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    // The server really uses that password: a wrong one is refused.
    const wrong = new URL(url);
    wrong.password = 'not-the-password';
    await expect(query(wrong.toString(), 'SELECT 1')).rejects.toThrow(/password authentication failed/);
  });

  it('keeps tables and rows across stop() and a second start() on the same DATA_DIR', async () => {
    const dataDir = freshDataDir();
    const firstServer = embeddedIn(dataDir);
    const first = await firstServer.start();
    await query(first, 'CREATE TABLE survivors (id int PRIMARY KEY, name text NOT NULL)');
    await query(first, `INSERT INTO survivors VALUES (1, 'Ada')`);
    await firstServer.stop();

    const second = await embeddedIn(dataDir).start();

    expect(await query(second, 'SELECT id, name FROM survivors')).toEqual([{ id: 1, name: 'Ada' }]);
  });

  it('leaves nothing listening on its port, and no server process, after stop()', async () => {
    const dataDir = freshDataDir();
    const server = embeddedIn(dataDir);
    const url = await server.start();
    expect(processesMentioning(dataDir)).not.toHaveLength(0);

    await server.stop();

    await expect(query(url, 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(processesMentioning(dataDir)).toEqual([]);
  });
});

describe('runMigrationsExclusively', () => {
  it('lets two processes migrate one fresh database at the same time, each migration applied once', async () => {
    const serverUrl = new URL(await embeddedIn(freshDataDir()).start());
    serverUrl.pathname = '/postgres';
    await createDatabaseIfMissing(serverUrl.toString(), 'concurrent_migrations');
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = '/concurrent_migrations';
    const sources = await Promise.all(
      [1, 2].map(() => new DataSource(dataSourceOptions(databaseUrl.toString(), ENTITIES)).initialize()),
    );
    try {
      const results = await Promise.allSettled(sources.map((source) => runMigrationsExclusively(source)));

      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      // Byte order on both sides: the database's collation and localeCompare disagree on case
      // (SuppressionScope… and Suppressions…).
      const rows = await sources[0].query(
        `SELECT name, count(*)::int AS n FROM migrations GROUP BY name ORDER BY name COLLATE "C"`,
      );
      const expected = MIGRATIONS.map((m) => ({ name: new m().name ?? m.name, n: 1 }));
      expect(rows).toEqual(expected.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
      // The schema is really there, not just recorded.
      const [{ exists }] = await sources[0].query(`SELECT to_regclass('public.messages') IS NOT NULL AS exists`);
      expect(exists).toBe(true);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });
});
