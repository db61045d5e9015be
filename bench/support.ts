import 'reflect-metadata';
export { freePort } from '../src/common/free-port';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
