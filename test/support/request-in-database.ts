import { Client } from 'pg';

/**
 * Starts `request` while a connection of the test's own holds `userId`'s rate-limit row locked,
 * so that the request waits inside the database; runs `meanwhile` once it does (with the locking
 * client), then releases the lock and resolves with the request's outcome.
 */
export async function whileRequestWaitsInDatabase<T>(
  databaseUrl: string,
  userId: string,
  request: () => Promise<T>,
  meanwhile: (locker: Client) => Promise<void>,
): Promise<T> {
  const locker = new Client({ connectionString: databaseUrl });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    const locked = await locker.query('SELECT 1 FROM rate_limit_counters WHERE right(key, length($1)) = $1 FOR UPDATE', [userId]);
    if (locked.rowCount !== 1) throw new Error(`User ${userId} has no rate-limit row to lock: make a request first`);
    const pending = request();
    await waitUntilSomeoneWaitsOn(locker);
    await meanwhile(locker);
    return await pending;
  } finally {
    await locker.end();
  }
}

/** Until another session waits on a lock that `client` holds. */
async function waitUntilSomeoneWaitsOn(client: Client, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const waiting = 'SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))';
  while ((await client.query(waiting)).rowCount === 0) {
    if (Date.now() > deadline) throw new Error(`Nobody waited on the lock within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
