import { DataSource } from 'typeorm';

/**
 * Polls pg-boss until queue `name` holds no job that may still run (waiting, due for a retry or
 * running): the real signal that a worker has done all it will do, in place of a sleep.
 */
export async function waitForQueueSettled(db: DataSource, name: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const unfinished: { id: string; state: string; start_after: Date }[] = await db.query(
      `SELECT id, state, start_after FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
      [name],
    );
    if (unfinished.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`Queue ${name} never settled; unfinished jobs: ${JSON.stringify(unfinished)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
