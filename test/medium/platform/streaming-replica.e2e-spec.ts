// The harness the read-replica suites stand on (SPEC §8, DATABASE_READ_URL): a real primary and a
// hot standby streaming its WAL, made with pg_basebackup. What a suite there relies on is proven
// here with the servers' own signals (LSNs, the replay pause state, refused connections), never
// with a sleep. Debian's PostgreSQL programs are required; without them the suite is skipped.
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { ReplicaPair, startStreamingReplica, streamingReplicaMissing } from '../../support/replica';
import { noticeSkip } from '../../support/skip-notice';

jest.setTimeout(120_000);

const missing = streamingReplicaMissing();
if (missing) noticeSkip(`streaming-replica: skipped, ${missing}`);
const describeWithServers = missing ? describe.skip : describe;

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const write = (url: string, body: string) =>
  withClient(url, (client) => client.query('INSERT INTO notes (body) VALUES ($1)', [body]));

const notes = (url: string, body: string) =>
  withClient(url, async (client) => (await client.query('SELECT body FROM notes WHERE body = $1', [body])).rows);

describeWithServers('a primary with a streaming replica (test/support/replica.ts)', () => {
  let pair: ReplicaPair;

  beforeAll(async () => {
    pair = await startStreamingReplica();
    await withClient(pair.primaryUrl, (client) =>
      client.query('CREATE TABLE notes (id serial PRIMARY KEY, body text)'),
    );
    await pair.waitForReplay();
  });

  afterAll(() => pair?.stop());

  it('streams: a row committed on the primary is on the replica once it has replayed the WAL', async () => {
    await write(pair.primaryUrl, 'streamed');

    await pair.waitForReplay();
    expect(await notes(pair.replicaUrl, 'streamed')).toEqual([{ body: 'streamed' }]);
  });

  it('holds back WAL it has received while replay is paused, and shows it once resumed', async () => {
    await pair.pauseReplay();
    try {
      await write(pair.primaryUrl, 'held back');
      // The commit has reached the replica's disk: only replay stands between it and a reader.
      await pair.waitForReceive();
      expect(await notes(pair.replicaUrl, 'held back')).toEqual([]);
      expect(await notes(pair.primaryUrl, 'held back')).toEqual([{ body: 'held back' }]);
    } finally {
      await pair.resumeReplay();
    }

    await pair.waitForReplay();
    expect(await notes(pair.replicaUrl, 'held back')).toEqual([{ body: 'held back' }]);
  });

  it('refuses writes on the replica: a read-only transaction (25006)', async () => {
    await expect(write(pair.replicaUrl, 'written on the replica')).rejects.toMatchObject({ code: '25006' });
    expect(await notes(pair.primaryUrl, 'written on the replica')).toEqual([]);
  });

  it('refuses connections while the replica is stopped, and answers again, caught up, once started', async () => {
    await pair.stopReplica();
    try {
      await expect(notes(pair.replicaUrl, 'anything')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      // The primary does not wait for its replica; the slot keeps the WAL it has not received.
      await write(pair.primaryUrl, 'while the replica was down');
    } finally {
      await pair.startReplica();
    }

    await pair.waitForReplay();
    expect(await notes(pair.replicaUrl, 'while the replica was down')).toEqual([
      { body: 'while the replica was down' },
    ]);
  });
});

/** Whether a process with this id exists: ours are reaped as they exit, so a gone one is no zombie. */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeWithServers('stopping the pair (test/support/replica.ts)', () => {
  it('ends both servers it started and removes their directory', async () => {
    const pair = await startStreamingReplica();
    const pids = pair.pids();
    expect(pids).toHaveLength(2);

    await pair.stop();

    expect(pids.filter(exists)).toEqual([]);
    expect(pair.pids()).toEqual([]);
    expect(existsSync(pair.dir)).toBe(false);
  });
});
