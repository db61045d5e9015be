import 'reflect-metadata';
import { freePort } from '../src/platform/free-port';
import { ChildProcess, ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'jsonwebtoken';
import { Client } from 'pg';
import { createInterface, Interface } from 'node:readline';
import { createDatabaseIfMissing, EmbeddedPostgres } from '../src/platform/database/embedded-postgres';

export const ROOT = join(__dirname, '..');
export const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

/** The JWT secret of every Mailroom process a bench starts. */
export const BENCH_JWT_SECRET = 'bench-secret-of-at-least-thirty-two-characters';

/**
 * The data key of every Mailroom process a bench starts, as one deployment's processes share
 * theirs: each has a DATA_DIR of its own, where it would otherwise generate one, and a worker
 * could not open the endpoint secrets and DKIM keys an API process stored.
 */
export const BENCH_DATA_ENCRYPTION_KEY = 'bench-data-encryption-key-of-32-characters';

/** A JWT of `subject`, signed with BENCH_JWT_SECRET. */
export function benchToken(subject: string, expiresInSeconds = 3600): string {
  return sign({}, BENCH_JWT_SECRET, { algorithm: 'HS256', subject, expiresIn: expiresInSeconds });
}

/** The Authorization header value of benchToken(subject). */
export const benchBearer = (subject: string, expiresInSeconds = 3600) =>
  `Bearer ${benchToken(subject, expiresInSeconds)}`;

/** The columns of every table of bench/results.md but the CPU one. */
export const RESULT_HEADER = ['measure', 'Mailroom', 'baseline', 'ratio', 'target', 'met'];

/** A Markdown table. */
export const markdownTable = (header: string[], rows: string[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

// Everything a bench run starts (Mailroom processes, the sink, an embedded PostgreSQL) is stopped
// whatever ends the run: its end, an error, Ctrl-C, SIGTERM or SIGHUP. Stops run last started
// first, so Mailroom processes stop before the database they use.
const owned: (() => Promise<void>)[] = [];
// A process of the bench that exits before the bench stops it: the run is broken from then on.
let died: Error | undefined;
// Set by a signal, an uncaught error or a dead child: the run's results are lost anyway, so
// Mailroom processes are killed rather than drained (a terminal's Ctrl-C has stopped PostgreSQL
// under them, and a graceful shutdown would then wait out its deadline).
let abandoned = false;

/** Registers what stops a thing the run started; the stop returned runs it once and forgets it. */
export function own(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const once = () => {
    const at = owned.indexOf(once);
    if (at >= 0) owned.splice(at, 1);
    return (stopping ??= stop());
  };
  owned.push(once);
  return once;
}

async function stopEverything(): Promise<void> {
  while (owned.length > 0) {
    await owned[owned.length - 1]().catch((error: unknown) =>
      process.stderr.write(`while stopping: ${String(error)}\n`),
    );
  }
}

/** Throws when a process of the bench has died: a wait for its work would otherwise last until its timeout. */
export function checkNothingDied(): void {
  if (died) throw died;
}

/** A child of the bench that must not exit before the bench stops it. */
function watch(child: ChildProcess, name: string, stopped: () => boolean): void {
  child.once('exit', (code, signal) => {
    if (stopped()) return;
    abandoned = true;
    died ??= new Error(`${name} (pid ${child.pid}) exited during the run (${signal ?? `exit ${code}`})`);
  });
}

/**
 * Runs a bench's main and ends the process: 0 when it succeeded, 1 when it failed, 128 + the
 * signal's number when it was interrupted; in every case after stopping everything it started.
 */
export function runBench(main: () => Promise<void>): void {
  let ending = false;
  const end = (code: number) => {
    if (ending) return;
    ending = true;
    abandoned ||= code !== 0;
    void stopEverything().finally(() => process.exit(code));
  };
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping what the bench started\n`);
      end(128 + number);
    });
  }
  const fail = (error: unknown) => {
    // Once ending, what breaks as things stop (a connection the stopped server closed) is expected.
    if (ending) return;
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    end(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  main().then(() => end(0), fail);
}

/** The counting sink of smtp-sink.process.ts. */
export class SinkProcess {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    readonly port: number,
    /** Closes the sink and waits for its process to exit. */
    readonly stop: () => Promise<void>,
  ) {}

  /** `sites`: one server per loopback address on one port, each taking `delayMs` per message (smtp-sink.process.ts). */
  static async start(sites?: { hosts: string[]; delayMs: number }): Promise<SinkProcess> {
    const args = sites ? ['--hosts', sites.hosts.join(','), '--delay-ms', String(sites.delayMs)] : [];
    const child = spawn(process.execPath, [...TS_NODE, join(__dirname, 'smtp-sink.process.ts'), ...args], {
      cwd: ROOT,
    });
    let stopped = false;
    const stop = own(async () => {
      stopped = true;
      child.stdin.end();
      await exited(child);
    });
    watch(child, 'the SMTP sink', () => stopped);
    // Writes to a sink that died fail with EPIPE; count() reports the death instead.
    child.stdin.on('error', () => undefined);
    child.stderr.pipe(process.stderr);
    const lines = createInterface({ input: child.stdout });
    const port = Number(await nextLine(lines, child));
    return new SinkProcess(child, lines, port, stop);
  }

  get pid(): number {
    return this.child.pid!;
  }

  async count(): Promise<number> {
    const answer = nextLine(this.lines, this.child);
    this.child.stdin.write('count\n');
    return Number(await answer);
  }

  async waitFor(total: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.count()) < total) {
      checkNothingDied();
      if (Date.now() > deadline) throw new Error(`the sink saw ${await this.count()} of ${total} messages in time`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The next line `child` writes; rejected when it exits first. */
function nextLine(lines: Interface, child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const gone = () => reject(new Error(`process ${child.pid} exited before answering`));
    if (child.exitCode !== null || child.signalCode !== null) return gone();
    child.once('exit', gone);
    lines.once('line', (line) => {
      child.off('exit', gone);
      resolve(line);
    });
  });
}

/** Resolves once `child` has exited (at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface MailroomProcess {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** A Mailroom process (`node dist/src/main.js`, so `npm run build` first) on `databaseUrl`, ready to serve. */
export async function startMailroomProcess(
  databaseUrl: string,
  options: { role: 'all' | 'api' | 'worker'; env?: Record<string, string>; nodeArgs?: string[] },
): Promise<MailroomProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-'));
  const port = await freePort();
  // BENCH_CPU_PROF=<folder>: each Mailroom process writes a V8 CPU profile there when it stops
  // (read with `node -r ts-node/register/transpile-only bench/profile-summary.ts <file>` or DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // As `npm start` and the Dockerfile run it (README, Performance: the young generation's size).
  const nodeArgs = ['--max-semi-space-size=4', ...profile, ...(options.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ROLE: options.role,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATA_ENCRYPTION_KEY: BENCH_DATA_ENCRYPTION_KEY,
      ...options.env,
    },
  });
  let stopped = false;
  const stop = own(async () => {
    stopped = true;
    child.kill('SIGTERM');
    // Mailroom gives what is in flight 30 s (SHUTDOWN_DEADLINE_MS) before it exits by itself.
    const deadline = Date.now() + 40_000;
    const killer = setInterval(() => (abandoned || Date.now() > deadline) && child.kill('SIGKILL'), 100);
    await exited(child);
    clearInterval(killer);
    rmSync(dataDir, { recursive: true, force: true });
  });
  watch(child, `the Mailroom process (ROLE=${options.role})`, () => stopped);
  child.stderr.pipe(process.stderr);
  if (options.role !== 'worker') await ready(child, port);
  return { port, pid: child.pid!, stop };
}

/** Resolves once /health/ready answers; rejects when the process exits first or takes over a minute. */
function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const done = (error?: Error) => {
      clearInterval(poll);
      child.off('exit', exitedEarly);
      if (error) reject(error);
      else resolve();
    };
    const exitedEarly = (code: number | null) => done(new Error(`Mailroom exited with ${code} before it was ready`));
    child.once('exit', exitedEarly);
    const poll = setInterval(() => {
      if (Date.now() > deadline) return done(new Error('Mailroom was not ready within a minute'));
      fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok && done(),
        () => undefined,
      );
    }, 100);
  });
}

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Runs `task` for each of `count` items with at most `concurrency` at once. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export interface BenchDatabase {
  url: string;
  /** The postmaster's pid when the server is the bench's own (embedded), for its CPU time. */
  serverPid?: number;
  /** The URL of another fresh database on the same server. */
  another(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh database for a bench run: a new database on DATABASE_URL's server when it is set,
 * otherwise on an embedded server in a temporary folder (stopped and removed by `close`).
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  let server: URL;
  let serverPid: number | undefined;
  let close = (): Promise<void> => Promise.resolve();
  if (process.env.DATABASE_URL) {
    server = new URL(process.env.DATABASE_URL);
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-db-'));
    const embedded = await startEmbeddedServer(dataDir, () => rmSync(dataDir, { recursive: true, force: true }));
    [server, serverPid, close] = [new URL(embedded.url), embedded.pid, embedded.stop];
  }
  let created = 0;
  const another = async () => {
    const name = `mailroom_bench_${Date.now().toString(36)}_${created++}`;
    server.pathname = '/postgres';
    await createDatabaseIfMissing(server.toString(), name);
    server.pathname = `/${name}`;
    return server.toString();
  };
  return { url: await another(), serverPid, another, close };
}

/**
 * An embedded PostgreSQL server in `dataDir`, owned by the run (see runBench); `removeData`
 * runs after it stopped. Returns the URL of its `mailroom` database.
 */
export async function startEmbeddedServer(
  dataDir: string,
  removeData: () => void = () => {},
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const embedded = new EmbeddedPostgres(dataDir);
  // The pid is read at once: PostgreSQL removes postmaster.pid when it stops.
  const starting = embedded.start().then((url) => ({ url, pid: postmasterPid(dataDir) }));
  const stop = own(async () => {
    const started = await starting.catch(() => undefined);
    // A postmaster that already stopped (Ctrl-C in a terminal reaches it too) never reports
    // its exit to embedded.stop(), which would then wait for ever: whichever comes first.
    if (started) await Promise.race([embedded.stop(), gone(started.pid)]);
    removeData();
  });
  return { ...(await starting), stop };
}

/** The first line of postmaster.pid (PostgreSQL writes it on start). */
function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Resolves once no process has this pid. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The run's databases, on DATABASE_URL's server: nobody else's to keep. */
export async function dropDatabases(urls: string[]): Promise<void> {
  const admin = new URL(urls[0]);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  for (const url of urls)
    await client.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  await client.end();
}
