import 'reflect-metadata';
import { freePort } from '../src/common/free-port';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, Interface } from 'node:readline';
import { createDatabaseIfMissing, EmbeddedPostgres } from '../src/database/embedded-postgres';

export const ROOT = join(__dirname, '..');
export const TS_NODE = ['-r', 'ts-node/register/transpile-only'];


/** The counting sink of smtp-sink.process.ts. */
export class SinkProcess {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    readonly port: number,
  ) {}

  static async start(): Promise<SinkProcess> {
    const child = spawn(process.execPath, [...TS_NODE, join(__dirname, 'smtp-sink.process.ts')], { cwd: ROOT });
    const lines = createInterface({ input: child.stdout });
    const port = Number(await nextLine(lines));
    return new SinkProcess(child, lines, port);
  }

  async count(): Promise<number> {
    const answer = nextLine(this.lines);
    this.child.stdin.write('count\n');
    return Number(await answer);
  }

  async waitFor(total: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.count()) < total) {
      if (Date.now() > deadline) throw new Error(`the sink saw ${await this.count()} of ${total} messages in time`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  stop(): void {
    this.child.stdin.end();
  }
}

function nextLine(lines: Interface): Promise<string> {
  return new Promise((resolve) => lines.once('line', resolve));
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
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/src/main.js'], {
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
      ...options.env,
    },
  });
  child.stderr.pipe(process.stderr);
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (options.role !== 'worker') {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`Mailroom exited with ${code}`)));
      const poll = setInterval(() => {
        fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok && (clearInterval(poll), resolve()), () => undefined);
      }, 100);
    });
  }
  return { port, pid: child.pid!, stop };
}

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Runs `task` for each of `count` items with at most `concurrency` at once. */
export async function runConcurrently(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/**
 * A fresh database for a bench run: a new database on DATABASE_URL's server when it is set,
 * otherwise on an embedded server in a temporary folder (stopped and removed by `close`).
 */
export async function benchDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  const name = `mailroom_bench_${Date.now().toString(36)}`;
  if (process.env.DATABASE_URL) {
    const server = new URL(process.env.DATABASE_URL);
    server.pathname = '/postgres';
    await createDatabaseIfMissing(server.toString(), name);
    server.pathname = `/${name}`;
    return { url: server.toString(), close: async () => undefined };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-db-'));
  const embedded = new EmbeddedPostgres(dataDir);
  const url = new URL(await embedded.start());
  url.pathname = '/postgres';
  await createDatabaseIfMissing(url.toString(), name);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    close: async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
