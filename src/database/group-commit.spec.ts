import { EntityManager } from 'typeorm';
import { Database } from './database';
import { GroupCommit } from './group-commit';

// How the intake uses it: four writers, and a write that starts the moment a send comes.
const INTAKE = { maxBatch: 100, maxWriters: 4, gatherOneTurn: false };

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
