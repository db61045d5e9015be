import { EntityManager } from 'typeorm';
import { Database } from './database';
import { GroupCommit } from './group-commit';

// How the intake uses it: four writers, and a write that starts the moment a send comes.
const INTAKE = { maxBatch: 100, maxWriters: 4, gatherMs: null };

describe(GroupCommit.name, () => {
  let commits: { size: number; release(): void; fail(error: Error): void }[];
  let sut: GroupCommit<string, string>;

  beforeEach(() => {
    commits = [];
    // Each transaction runs its work, then waits to be committed (or failed) by the test.
    const database = {
      transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
        let size = 0;
        const result = await work({ size: (n: number) => (size = n) } as unknown as EntityManager);
        await new Promise<void>((release, fail) => commits.push({ size, release, fail }));
        return result;
      },
    } as Database;
    const write = (manager: EntityManager, items: string[]) => {
      (manager as unknown as { size(n: number): void }).size(items.length);
      return Promise.resolve(items.map((item) => `stored ${item}`));
    };
    sut = new GroupCommit(database, write, INTAKE);
  });

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('shares a transaction among the items that arrive while others are being written', async () => {
    const answers = Array.from({ length: 30 }, (_, i) => sut.submit(`m${i}`));
    await settle();
    // Four writers start at once, one item each; the other 26 wait together.
    expect(commits.map((c) => c.size)).toEqual([1, 1, 1, 1]);

    commits.forEach((c) => c.release());
    await settle();

    expect(commits.slice(4).map((c) => c.size)).toEqual([26]);
    commits[4].release();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 30 }, (_, i) => `stored m${i}`));
  });

  it('fails every item of a transaction that fails, and only those', async () => {
    const first = sut.submit('a');
    await settle();
    const others = [sut.submit('b'), sut.submit('c')];
    await settle();

    commits[0].fail(new Error('connection lost'));

    await expect(first).rejects.toThrow('connection lost');
    commits.slice(1).forEach((c) => c.release());
    expect(await Promise.all(others)).toEqual(['stored b', 'stored c']);
  });
});

describe(`${GroupCommit.name}, when one item holds a value PostgreSQL refuses`, () => {
  const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  let transactions: string[][];

  /** A database whose transactions commit at once, and fail whole when `failWith` says so. */
  function groupCommit(failWith: (items: string[]) => Error | undefined, retryDelaysMs?: number[]) {
    transactions = [];
    const database = {
      transaction: <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => work({} as EntityManager),
    } as Database;
    const write = (_manager: EntityManager, items: string[]) => {
      transactions.push(items);
      const error = failWith(items);
      return error ? Promise.reject(error) : Promise.resolve(items.map((item) => `stored ${item}`));
    };
    // One writer that gathers a turn: the eight items below share one batch.
    return new GroupCommit(database, write, { maxBatch: 100, maxWriters: 1, gatherMs: 0, retryDelaysMs });
  }

  it('writes the batch again in halves, so that only that item fails and the others keep their order', async () => {
    const sut = groupCommit((items) => (items.includes('bad') ? refused : undefined));
    const items = ['a', 'b', 'c', 'bad', 'e', 'f', 'g', 'h'];
    const answers = await Promise.allSettled(items.map((item) => sut.submit(item)));

    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([
      'stored a',
      'stored b',
      'stored c',
      refused.message,
      'stored e',
      'stored f',
      'stored g',
      'stored h',
    ]);
    // The whole, its half with the bad item (then that half's halves), the good half.
    expect(transactions).toEqual([
      items,
      ['a', 'b', 'c', 'bad'],
      ['a', 'b'],
      ['c', 'bad'],
      ['c'],
      ['bad'],
      ['e', 'f', 'g', 'h'],
    ]);
  });

  it('fails the whole batch, unsplit, on any other error, after the retries it is given', async () => {
    const full = Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
    const sut = groupCommit(() => full, [1, 1]);
    const answers = await Promise.allSettled(['a', 'b', 'c'].map((item) => sut.submit(item)));

    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(transactions).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
  });

  it('splits a refused batch at once and fails the refused item at once, without the retries meant for outages', async () => {
    const sut = groupCommit((items) => (items.includes('bad') ? refused : undefined), [60_000]);
    const answers = await Promise.allSettled(['a', 'bad'].map((item) => sut.submit(item)));

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected']);
    expect(transactions).toEqual([['a', 'bad'], ['a'], ['bad']]);
  });
});
