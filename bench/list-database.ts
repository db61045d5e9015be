import { join } from 'node:path';
import { Client } from 'pg';
import { createDatabaseIfMissing } from '../src/platform/database/embedded-postgres';
import { ROOT, startEmbeddedServer } from './support';

export const BENCH_USER = 'bench-big';
export const otherBenchUser = (n: number) => `bench-other-${n}`;
const NAME = 'mailroom_bench_list';

/**
 * The list benchmark's database, kept between `npm run bench:seed` and `npm run bench`: on
 * DATABASE_URL's server when set, else on an embedded server in bench/out/postgres.
 * `fresh` drops whatever an earlier seed left.
 */
export async function benchListDatabase(
  options: { fresh?: boolean } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  let serverUrl: URL;
  let stop = (): Promise<void> => Promise.resolve();
  if (process.env.DATABASE_URL) {
    serverUrl = new URL(process.env.DATABASE_URL);
  } else {
    const server = await startEmbeddedServer(join(ROOT, 'bench/out'));
    serverUrl = new URL(server.url);
    stop = server.stop;
  }
  serverUrl.pathname = '/postgres';
  if (options.fresh) {
    const client = new Client({ connectionString: serverUrl.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await client.end();
  }
  await createDatabaseIfMissing(serverUrl.toString(), NAME);
  serverUrl.pathname = `/${NAME}`;
  return { url: serverUrl.toString(), close: stop };
}
