// RateLimit-Remaining is exact in one process (docs/api.md#errors, docs/scaling.md): a request counted in the database while
// the background write of hits admitted before it is still on its way counts after that write, so
// its answer includes them. The database is real; only the write is held, to open that window.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/platform/database/data-source-options';
import { Database } from '../../../src/platform/database/database';
import { PreparedStatements } from '../../../src/platform/database/prepared-statements';
import { ENTITIES } from '../../../src/entities';
import { PostgresThrottlerStorage } from '../../../src/auth/rate-limit/postgres-throttler.storage';
import { newUserId } from '../../support/tokens';
import { RateLimitCountersRepository } from '../../../src/auth/rate-limit/rate-limit-counters.repository';

const LIMIT = 3;
const WINDOW_MS = 60_000;

describe('rate-limit counters: a count on the request path while a write is on its way', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
  });
  afterAll(() => dataSource?.destroy());

  it("counts after the write, so the third request's count is 3 (remaining 0), not 2", async () => {
    const statements = new PreparedStatements(new Database(dataSource));
    let writeAsked!: () => void;
    const asked = new Promise<void>((resolve) => (writeAsked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The background write is the statement over unnest(…): held until released, then run as it is.
    const held = {
      query: (sql: string, params: unknown[]) => {
        if (!sql.includes('unnest($1::text[]')) return statements.query(sql, params);
        writeAsked();
        return released.then(() => statements.query(sql, params));
      },
    } as PreparedStatements;
    const sut = new PostgresThrottlerStorage(new RateLimitCountersRepository(held));
    const key = newUserId('remaining');
    const hit = () => sut.increment(key, WINDOW_MS, LIMIT, 0, 'default');

    expect((await hit()).totalHits).toBe(1); // the window's first hit: counted on its path
    expect((await hit()).totalHits).toBe(2); // admitted here, written in the background
    await asked;
    const third = hit(); // past the local allowance: counted on its path, while the write is held
    release();

    expect((await third).totalHits).toBe(3);
    await sut.onModuleDestroy();
    const [{ hits }] = await dataSource.query(`SELECT hits FROM rate_limit_counters WHERE key = $1`, [
      `default:${key}`,
    ]);
    expect(hits).toBe(3);
  });
});
