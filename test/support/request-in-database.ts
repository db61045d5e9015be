import { Client } from 'pg';

/**
 * Starts `request` while a connection of the test's own holds the rate-limit counters locked,
 * so that the request waits inside the database; runs `meanwhile` once it does (with the locking
 * client), then releases the lock and resolves with the request's outcome. The request must count
 * its hit on its own path: make it the first of a user the app has not seen this minute (later
 * ones are admitted from what the process knows, src/auth/rate-limit/postgres-throttler.storage.ts).
 */
export async function whileRequestWaitsInDatabase<T>(
  databaseUrl: string,
  request: () => Promise<T>,
  meanwhile: (locker: Client) => Promise<void>,
): Promise<T> {
  const locker = new Client({ connectionString: databaseUrl });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    // EXCLUSIVE: reads go on, every insert or update of a counter waits.
    await locker.query('LOCK TABLE rate_limit_counters IN EXCLUSIVE MODE');
    const pending = request();
    await waitUntilSomeoneWaitsOn(locker);
    await meanwhile(locker);
    return await pending;
  } finally {
    await locker.end();
  }
}

/**
 * Until another session waits on a lock that `client` holds. Its query text cannot tell which
 * session: one waiting while its statement is parsed still shows its previous one.
 */
async function waitUntilSomeoneWaitsOn(client: Client, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const waiting = 'SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))';
  while ((await client.query(waiting)).rowCount === 0) {
    if (Date.now() > deadline) throw new Error(`Nobody waited on the lock within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
