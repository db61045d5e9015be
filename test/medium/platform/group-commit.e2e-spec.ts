// The group commit that the intake and the delivery recorder share, on a real PostgreSQL: items
// submitted together share a transaction, batches keep their bounds, a failed transaction fails
// only its own submitters and leaves nothing behind, and retries write in a new transaction.
import { DataSource, EntityManager } from 'typeorm';
import { Database } from '../../../src/platform/database/database';
import { GroupCommit, GroupCommitOptions } from '../../../src/platform/database/group-commit';
import { dataSourceOptions } from '../../../src/platform/database/data-source-options';
import { ENTITIES } from '../../../src/entities';
import { waitFor } from '../../support/wait-for';

const TABLE = `group_commit_${process.pid}`;

describe('GroupCommit', () => {
  let dataSource: DataSource;
  let database: Database;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
    database = new Database(dataSource);
    await dataSource.query(`CREATE TABLE ${TABLE} (item text PRIMARY KEY, tx bigint NOT NULL)`);
  });
  afterAll(async () => {
    await dataSource?.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await dataSource?.destroy();
  });

  /** Inserts each item with the id of the transaction that wrote it, and returns that id. */
  async function insert(manager: EntityManager, items: string[]): Promise<string[]> {
    const rows: { tx: string }[] = await manager.query(
      `INSERT INTO ${TABLE} (item, tx) SELECT unnest($1::text[]), txid_current() RETURNING tx`,
      [items],
    );
    return rows.map((r) => r.tx);
  }

  const stored = async (items: string[]) =>
    (await dataSource.query(`SELECT item FROM ${TABLE} WHERE item = ANY($1) ORDER BY item`, [items])).map(
      (r: { item: string }) => r.item,
    );

  const options = (overrides: Partial<GroupCommitOptions>): GroupCommitOptions => ({
    maxBatch: 100,
    maxWriters: 1,
    gatherMs: 0,
    ...overrides,
  });
  const items = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

  it('commits what is submitted in the same turn in one transaction, and answers each submitter', async () => {
    const commit = new GroupCommit(database, insert, options({}));
    const given = items('turn', 50);
    const txs = await Promise.all(given.map((item) => commit.submit(item)));
    expect(new Set(txs).size).toBe(1);
    expect(await stored(given)).toEqual(given);
  });

  it('writes no more than maxBatch items per transaction, in the order submitted', async () => {
    const commit = new GroupCommit(database, insert, options({ maxBatch: 10 }));
    const given = items('batch', 25);
    const txs = await Promise.all(given.map((item) => commit.submit(item)));
    const sizes = [...new Set(txs)].map((tx) => txs.filter((t) => t === tx).length);
    expect(sizes).toEqual([10, 10, 5]);
    expect(txs.slice(0, 10).every((tx) => tx === txs[0])).toBe(true);
  });

  it('keeps at most maxWriters transactions open at once', async () => {
    let open = 0;
    let most = 0;
    let started = 0;
    const slowInsert = async (manager: EntityManager, batch: string[]) => {
      most = Math.max(most, ++open);
      // The first four wait for each other, so that they overlap however slowly a busy machine
      // opens their connections: the cap is reached, and no fifth may open meanwhile.
      if (++started <= 4) await waitFor(() => open === 4, 'four transactions open at once', 10_000);
      await manager.query('SELECT pg_sleep(0.05)');
      open--;
      return insert(manager, batch);
    };
    const commit = new GroupCommit(database, slowInsert, options({ maxBatch: 1, maxWriters: 4, gatherMs: null }));
    const given = items('writers', 12);
    await Promise.all(given.map((item) => commit.submit(item)));
    expect(most).toBe(4);
    expect(await stored(given)).toEqual(given);
  });

  it('fails only the submitters of a transaction that failed, and keeps none of its rows', async () => {
    const refusing = async (manager: EntityManager, batch: string[]) => {
      const txs = await insert(manager, batch);
      if (batch.some((item) => item.startsWith('refused'))) throw new Error('refused');
      return txs;
    };
    const commit = new GroupCommit(database, refusing, options({ maxBatch: 3 }));
    const outcomes = await Promise.allSettled(
      [...items('refused', 3), ...items('kept', 3)].map((item) => commit.submit(item)),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await stored(items('refused', 3))).toEqual([]);
    expect(await stored(items('kept', 3))).toEqual(items('kept', 3));
  });

  it('isolates an item whose row PostgreSQL refuses: the others of its transaction commit, and it alone fails', async () => {
    const commit = new GroupCommit(database, insert, options({ maxBatch: 100 }));
    const given = items('shared', 40);
    // A NUL: PostgreSQL text cannot hold one (22021), so the whole shared statement fails.
    const refused = 'shared-nul-\u0000';
    const outcomes = await Promise.allSettled(
      [...given.slice(0, 17), refused, ...given.slice(17)].map((item) => commit.submit(item)),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ code: '22021' }) },
    ]);
    expect(outcomes[17].status).toBe('rejected');
    expect(await stored(given)).toEqual(given);
  });

  it('fails every item of a batch at once when the database is out of reach, without writing them one by one', async () => {
    let writes = 0;
    const unreachable = () => {
      writes++;
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
    };
    const commit = new GroupCommit(database, unreachable, options({}));
    const outcomes = await Promise.allSettled(items('away', 10).map((item) => commit.submit(item)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill('rejected'));
    expect(writes).toBe(1);
  });

  it('writes a failed batch again, in a new transaction, while retry delays remain', async () => {
    let failuresLeft = 2;
    const flaky = async (manager: EntityManager, batch: string[]) => {
      const txs = await insert(manager, batch);
      if (failuresLeft-- > 0) throw new Error('connection lost');
      return txs;
    };
    const commit = new GroupCommit(database, flaky, options({ retryDelaysMs: [5, 5] }));
    expect(await commit.submit('retried-000')).toEqual(expect.any(String));
    expect(await stored(['retried-000'])).toEqual(['retried-000']);

    failuresLeft = 3;
    await expect(commit.submit('given-up-000')).rejects.toThrow('connection lost');
    expect(await stored(['given-up-000'])).toEqual([]);
  });
});
