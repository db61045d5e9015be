import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../../src/platform/free-port';

const execFileAsync = promisify(execFile);

/** The programs a primary and its streaming replica need, as Debian's postgresql package installs them. */
const PROGRAMS = ['initdb', 'postgres', 'pg_basebackup'] as const;
type Program = (typeof PROGRAMS)[number];

/**
 * Debian keeps each major version's programs in /usr/lib/postgresql/<version>/bin, and puts only
 * pg_wrapper on PATH; the newest version with all three wins, so that initdb and postgres match.
 * POSTGRES_BIN_DIR overrides the search, so that a run can hide them (=/nonexistent) and show the skips.
 */
function findPrograms(): Record<Program, string> | string {
  const override = process.env.POSTGRES_BIN_DIR;
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : [];
  const dirs = override ? [override] : [...debian, ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)];
  const whole = dirs.find((dir) => PROGRAMS.every((program) => existsSync(join(dir, program))));
  if (whole)
    return Object.fromEntries(PROGRAMS.map((program) => [program, join(whole, program)])) as Record<Program, string>;
  const missing = PROGRAMS.filter((program) => !dirs.some((dir) => existsSync(join(dir, program))));
  const where = override ? `POSTGRES_BIN_DIR=${override}` : '/usr/lib/postgresql/<version>/bin or PATH';
  return missing.length
    ? `no ${missing.join(', ')} in ${where} (apt-get install postgresql)`
    : `no directory in ${where} holds all of ${PROGRAMS.join(', ')} (apt-get install postgresql)`;
}

/**
 * PostgreSQL refuses to run as root: then its programs run as the `postgres` system user, spawned
 * with its uid and gid (libuv drops root's supplementary groups) rather than through runuser, which
 * forks and stays the parent: so a child's pid is the server's, and SIGINT reaches the server.
 */
function serverUser(): { uid: number; gid: number } | string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return 'running as root and there is no postgres user to run the servers as';
  }
}

/** Why a primary with a streaming replica cannot run here, or undefined when it can. */
export function streamingReplicaMissing(): string | undefined {
  const programs = findPrograms();
  if (typeof programs === 'string') return programs;
  const user = serverUser();
  return typeof user === 'string' ? user : undefined;
}

/**
 * A throwaway server, settings for speed: nothing here outlives the test, so nothing is flushed to
 * disk. Given on the command line of each server, not in postgresql.conf, which pg_basebackup
 * would copy to the replica with the primary's port.
 */
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  fsync: 'off',
  shared_buffers: '16MB',
  max_connections: '100',
  wal_level: 'replica',
  max_wal_senders: '4',
  max_replication_slots: '4',
  hot_standby: 'on',
  // A paused replica's reads are never cancelled for conflicting with the WAL it holds back.
  max_standby_streaming_delay: '-1',
  // pg_stat_replication on the primary learns what the replica has replayed within 1 s, not 10 s.
  wal_receiver_status_interval: '1s',
  log_min_messages: 'warning',
};

/** Trust from loopback only, for the test's own clients and for the replica's replication connection. */
const HBA = ['host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', ''].join('\n');

/**
 * Where the pair's directory goes: tmpfs when there is room, as files there cost no disk writes.
 * On this project's 2-core machine under load, a start took 4-5 s there against 10-12 s in /tmp,
 * most of it pg_basebackup's and CREATE DATABASE's file writes. Docker's default /dev/shm (64 MB)
 * is too small for two clusters with their WAL: then os.tmpdir().
 */
function dataRoot(): string {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= 1024 ** 3) return '/dev/shm';
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

/** How long the replica may show no progress toward an LSN before waiting for it fails. */
const STALL_MS = 30_000;

export interface ReplicaPair {
  /** postgres://postgres@127.0.0.1:<port>/<database> on the primary. */
  readonly primaryUrl: string;
  /** The same database on the hot-standby replica, which streams the primary's WAL. */
  readonly replicaUrl: string;
  /** The temporary directory holding both data directories; stop() removes it. */
  readonly dir: string;
  /** The live servers' (postmasters') process ids: the children this pair started and still runs. */
  pids(): number[];
  /** Stops applying WAL on the replica (it keeps receiving it); resolves once the pause has taken effect. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has received (written and flushed) the primary's WAL up to its current LSN. */
  waitForReceive(): Promise<void>;
  /**
   * Resolves once the replica has replayed the primary's WAL up to its current LSN: what was
   * committed is visible there. Fails at once while replay is paused.
   */
  waitForReplay(): Promise<void>;
  /** A fast shutdown of the replica: it refuses connections until startReplica(). */
  stopReplica(): Promise<void>;
  /** Starts the replica again on its port; it catches up from its replication slot. */
  startReplica(): Promise<void>;
  /** Stops both servers and removes their directory. */
  stop(): Promise<void>;
  /** What the servers and programs printed, for failure messages. */
  log(): string;
}

/**
 * A real PostgreSQL primary and a hot-standby replica streaming from it, made with
 * `pg_basebackup -R`, each on a free loopback port in a temporary directory of its own: what a
 * deployment with DATABASE_READ_URL reads from. `database` is created on the primary before the
 * base backup, so it exists on both. Check streamingReplicaMissing() first.
 */
export async function startStreamingReplica(database = 'mailroom'): Promise<ReplicaPair> {
  const programs = findPrograms();
  const user = serverUser();
  if (typeof programs === 'string' || typeof user === 'string') throw new Error(streamingReplicaMissing());
  const pair = new StreamingReplica(programs, user, database);
  try {
    await pair.start();
  } catch (error) {
    await pair.stop();
    throw error;
  }
  return pair;
}

class StreamingReplica implements ReplicaPair {
  readonly dir = mkdtempSync(join(dataRoot(), 'mailroom-replica-'));
  private readonly primary: Server;
  private readonly replica: Server;
  private output = '';
  primaryUrl = '';
  replicaUrl = '';

  constructor(
    private readonly programs: Record<Program, string>,
    private readonly user: { uid: number; gid: number } | undefined,
    private readonly database: string,
  ) {
    if (user) chownSync(this.dir, user.uid, user.gid);
    chmodSync(this.dir, 0o700);
    const append = (chunk: string) => (this.output = (this.output + chunk).slice(-20_000));
    this.primary = new Server('primary', programs.postgres, join(this.dir, 'primary'), user, append);
    this.replica = new Server('replica', programs.postgres, join(this.dir, 'replica'), user, append);
  }

  async start(): Promise<void> {
    const [primaryPort, replicaPort] = [await freePort(), await freePort()];
    await this.run(this.programs.initdb, [
      ...['-D', this.primary.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C'],
      ...['--no-sync', '--no-instructions'],
    ]);
    this.writeOwned(join(this.primary.dataDir, 'pg_hba.conf'), HBA);
    await this.primary.start(primaryPort);
    const admin = (port: number, db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
    await query(admin(primaryPort), `CREATE DATABASE "${this.database}"`);
    // A slot keeps the primary's WAL for the replica while it is stopped, however much is written.
    await this.run(this.programs.pg_basebackup, [
      ...['-d', `host=127.0.0.1 port=${primaryPort} user=postgres`, '-D', this.replica.dataDir],
      ...['-R', '-X', 'stream', '-C', '-S', 'replica', '-c', 'fast', '--no-sync'],
    ]);
    await this.replica.start(replicaPort);
    this.primaryUrl = admin(primaryPort, this.database);
    this.replicaUrl = admin(replicaPort, this.database);
  }

  pids(): number[] {
    return [this.primary.pid(), this.replica.pid()].filter((pid): pid is number => pid !== undefined);
  }

  async pauseReplay(): Promise<void> {
    await query(this.replicaUrl, 'SELECT pg_wal_replay_pause()');
    // A pause is only requested until the startup process next checks for it.
    await this.untilReplica(`SELECT pg_get_wal_replay_pause_state() = 'paused' AS done`, 'replay to pause');
  }

  async resumeReplay(): Promise<void> {
    await query(this.replicaUrl, 'SELECT pg_wal_replay_resume()');
  }

  waitForReceive(): Promise<void> {
    return this.untilReplicaAt('pg_last_wal_receive_lsn()', 'received');
  }

  async waitForReplay(): Promise<void> {
    const [{ state }] = await query<{ state: string }>(
      this.replicaUrl,
      'SELECT pg_get_wal_replay_pause_state() AS state',
    );
    if (state !== 'not paused') throw new Error(`replay is ${state} on the replica: resumeReplay() first`);
    await this.untilReplicaAt('pg_last_wal_replay_lsn()', 'replayed');
  }

  stopReplica(): Promise<void> {
    return this.replica.stop();
  }

  startReplica(): Promise<void> {
    return this.replica.start(this.replica.port);
  }

  async stop(): Promise<void> {
    // The replica first: a primary's fast shutdown waits for its WAL senders to hand over the end.
    await this.replica.stop();
    await this.primary.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  log(): string {
    return this.output;
  }

  /** Waits until `position` on the replica reaches the primary's current WAL position. */
  private async untilReplicaAt(position: string, what: string): Promise<void> {
    const [{ lsn }] = await query<{ lsn: string }>(this.primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
    await this.untilReplica(
      `SELECT coalesce(${position} >= $1::pg_lsn, false) AS done, ${position}::text AS at`,
      `the replica to have ${what} the primary's WAL up to ${lsn}`,
      [lsn],
    );
  }

  /**
   * Polls `sql` on the replica (one connection, every 50 ms: a new one each time would fork a server
   * process as often) until its `done` is true; fails once its `at` (if any) has not moved for STALL_MS.
   */
  private async untilReplica(sql: string, what: string, params: unknown[] = []): Promise<void> {
    const client = new Client({ connectionString: this.replicaUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      let at: unknown;
      let movedAt = Date.now();
      for (;;) {
        const [row] = (await client.query(sql, params)).rows as { done: boolean; at?: unknown }[];
        if (row.done) return;
        if (row.at !== at) [at, movedAt] = [row.at, Date.now()];
        else if (Date.now() - movedAt > STALL_MS)
          throw new Error(`No progress for ${STALL_MS} ms waiting for ${what} (at ${String(at)})\n${this.output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async run(program: string, args: string[]): Promise<void> {
    try {
      await execFileAsync(program, args, { cwd: this.dir, env: serverEnv(this.dir), ...this.user });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`${program} failed: ${stderr ?? String(error)}`, { cause: error });
    }
  }

  private writeOwned(path: string, text: string): void {
    writeFileSync(path, text, { mode: 0o600 });
    if (this.user) chownSync(path, this.user.uid, this.user.gid);
  }
}

/** One postmaster, run in the foreground as this process's child, so that its pid is the server's. */
class Server {
  private child?: ChildProcess;
  port = 0;

  constructor(
    private readonly name: string,
    private readonly program: string,
    readonly dataDir: string,
    private readonly user: { uid: number; gid: number } | undefined,
    private readonly append: (chunk: string) => void,
  ) {}

  async start(port: number): Promise<void> {
    this.port = port;
    const settings = Object.entries({ ...SETTINGS, port: String(port) }).flatMap(([key, value]) => [
      '-c',
      `${key}=${value}`,
    ]);
    const child = spawn(this.program, ['-D', this.dataDir, ...settings], {
      cwd: this.dataDir,
      env: serverEnv(this.dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...this.user,
    });
    this.child = child;
    const append = (chunk: Buffer) => this.append(`[${this.name}] ${chunk.toString()}`);
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    // A test process that ends without stop() (a crash, a timeout) leaves no server behind.
    const leftBehind = () => child.kill('SIGQUIT');
    process.once('exit', leftBehind);
    child.once('exit', () => process.off('exit', leftBehind));
    await this.untilAccepting(child);
  }

  pid(): number | undefined {
    return this.child && running(this.child) ? this.child.pid : undefined;
  }

  /** SIGINT is PostgreSQL's fast shutdown (ends its sessions); SIGQUIT, immediate, if that hangs. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !running(child)) return;
    child.kill('SIGINT');
    if (await exited(child, 30_000)) return;
    child.kill('SIGQUIT');
    if (!(await exited(child, 10_000))) child.kill('SIGKILL');
    await exited(child, 10_000);
  }

  private async untilAccepting(child: ChildProcess): Promise<void> {
    const url = `postgres://postgres@127.0.0.1:${this.port}/postgres`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (!running(child)) throw new Error(`the ${this.name} exited at start (${child.exitCode ?? child.signalCode})`);
      try {
        await query(url, 'SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`the ${this.name} did not accept connections: ${String(error)}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

// Not child-processes.ts's exitOf: importing that module loads the whole app (test-app.ts), 5 s.
function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Whether `child` has exited (and been reaped) within `timeoutMs`. */
function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (!running(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Nothing of the caller's PG* variables (PGHOST, PGPORT...) reaches the programs; HOME is theirs. */
function serverEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LC_ALL: 'C' };
}

/** One query on a connection of its own: the servers come and go under the tests. */
async function query<Row = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end().catch(() => undefined);
  }
}
