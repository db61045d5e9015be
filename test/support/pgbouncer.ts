import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/platform/free-port';
import { exitOf } from './child-processes';

/** Debian's package puts it here (`apt-get install pgbouncer`; .ci/run installs it). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** Why PgBouncer tests cannot run here, or undefined when they can. */
export function pgbouncerMissing(): string | undefined {
  return existsSync(PGBOUNCER) ? undefined : `${PGBOUNCER} is not installed (apt-get install pgbouncer)`;
}

/**
 * A real PgBouncer in `pool_mode=transaction` in front of the test server, on a free loopback
 * port, with its own temporary directory: a client's server connection is its only for one
 * transaction, as in a deployment behind a transaction pooler (docs/scaling.md). Every database
 * name is passed through to the server of `serverUrl`, whose user and password it connects with.
 */
export class PgBouncer {
  private child?: ChildProcess;
  private dir?: string;
  private output = '';
  port = 0;

  constructor(
    private readonly serverUrl: string,
    /** Server connections per database and user: what all the clients share. */
    readonly poolSize = 10,
  ) {}

  async start(): Promise<void> {
    const server = new URL(this.serverUrl);
    this.port = await freePort();
    this.dir = mkdtempSync(join(tmpdir(), 'mailroom-pgbouncer-'));
    // It refuses to run as root: then it runs as nobody (-u), which must read what is here.
    chmodSync(this.dir, 0o755);
    const user = decodeURIComponent(server.username || 'postgres');
    const password = decodeURIComponent(server.password);
    const usersFile = join(this.dir, 'users.txt');
    writeFileSync(usersFile, `"${user}" "${password.replace(/"/g, '""')}"\n`, { mode: 0o644 });
    const configFile = join(this.dir, 'pgbouncer.ini');
    writeFileSync(
      configFile,
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.port}`,
        'unix_socket_dir =',
        // Loopback only, for the test's own processes; the server side uses the URL's password.
        'auth_type = trust',
        `auth_file = ${usersFile}`,
        'pool_mode = transaction',
        `default_pool_size = ${this.poolSize}`,
        'max_client_conn = 1000',
        // What node-postgres and psql send at start that PgBouncer does not pass on.
        'ignore_startup_parameters = extra_float_digits,options',
        '',
      ].join('\n'),
      { mode: 0o644 },
    );
    const asRoot = process.getuid?.() === 0;
    const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), configFile], { stdio: 'pipe' });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    await this.untilAccepting();
  }

  /** `serverUrl`'s database (or `database`) reached through the pooler. */
  url(database?: string): string {
    const url = new URL(this.serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    if (database !== undefined) url.pathname = `/${database}`;
    return url.toString();
  }

  /** What PgBouncer logged, for failure messages. */
  log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await exitOf(child, 10_000))) child.kill('SIGKILL');
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  private async untilAccepting(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.child!.exitCode !== null) throw new Error(`pgbouncer exited at start:\n${this.output}`);
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`pgbouncer did not accept connections: ${String(error)}\n${this.output}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}
