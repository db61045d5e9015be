// Reads from a real streaming replica (SPEC §8, docs/scaling.md#read-replicas): a primary and a
// `pg_basebackup -R` standby of Debian's PostgreSQL (test/support/replica.ts), three API apps on
// them. The replica's replay is paused to make it lag for real: what a list shows says where it
// was read. Without the binaries the suite is skipped, saying so.
import { Pool } from 'pg';
import { ReadReplica } from '../../src/platform/database/replica/read-replica';
import { sendBody } from '../support/factories';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../support/submission/submission-clients';
import { ReplicaPair, startStreamingReplica, streamingReplicaMissing } from '../support/replica';
import { readsOf, replicaUsable, subjects } from '../support/replica-reads';
import { noticeSkip } from '../support/skip-notice';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitFor } from '../support/wait-for';

const TIMEOUT = 120_000;

const missing = streamingReplicaMissing();
if (missing) noticeSkip(`read-replica: skipped, ${missing}`);
const describeWithReplica = missing ? describe.skip : describe;

let pair: ReplicaPair;
/** Straight to the primary: what the test changes behind the apps' backs, as a worker would. */
let primary: Pool;
/** Sends, over HTTP and SMTP submission; its marks of who wrote are shared with the others through the primary. */
let writer: TestApp;
/** Reads under a lag bound the paused replay never reaches within a test. */
let reader: TestApp;
/** Reads under a bound a paused replay passes within a second. */
let strict: TestApp;

describeWithReplica('reads from a streaming replica', () => {
  beforeAll(async () => {
    pair = await startStreamingReplica();
    primary = new Pool({ connectionString: pair.primaryUrl, max: 2 });
    const withReplica = (maxLagMs: number) => ({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      DATABASE_READ_MAX_LAG_MS: String(maxLagMs),
      // Processes on one database share their keys: an API key made through one works on another.
      DATA_ENCRYPTION_KEY: 'read-replica-suite-data-encryption-key-0123456789',
    });
    writer = await bootTestApp({
      ...withReplica(60_000),
      SUBMISSION_SMTP_PORT: '0',
      SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    });
    reader = await bootTestApp(withReplica(60_000));
    strict = await bootTestApp(withReplica(300));
    for (const app of [writer, reader, strict]) await replicaUsable(app);
  }, TIMEOUT);

  afterAll(async () => {
    for (const app of [writer, reader, strict]) await app?.close();
    await primary?.end();
    await pair?.stop();
  }, TIMEOUT);

  afterEach(async () => {
    await pair.resumeReplay();
  });

  it(
    "runs a caller's list and look-up on the replica, as far as it has replayed, until it lags past the bound",
    async () => {
      const user = newUserId();
      const id = await send(writer, user);
      await pair.waitForReplay();
      await pair.pauseReplay();
      // A change that is no request of the user's (as a worker's): the primary has it, the replica has received it only.
      await primary.query(`UPDATE messages SET subject = 'Changed on the primary' WHERE user_id = $1`, [user]);
      await pair.waitForReceive();
      await forgetWritesOf(user);
      const before = await readsOf(reader);

      expect(await subjects(reader, user)).toEqual(['Your invoice']);
      expect((await http(reader).get(`/user/messages/${id}`).set(bearer(user)).expect(200)).body.subject).toBe(
        'Your invoice',
      );
      await http(reader).get('/user/stats').set(bearer(user)).expect(200);
      expect(changed(before, await readsOf(reader))).toEqual({ 'replica/replica': expect.any(Number) });

      // The paused replay's lag passes strict's 300 ms while the primary's log stands past it.
      await waitFor(() => !strict.app.get(ReadReplica).state().usable, 'strict to find the replica lagging', 10_000);
      const strictBefore = await readsOf(strict);
      expect(await subjects(strict, user)).toEqual(['Changed on the primary']);
      expect(changed(strictBefore, await readsOf(strict))).toEqual({ 'primary/lagging': expect.any(Number) });

      await pair.resumeReplay();
      await pair.waitForReplay();
      expect(await subjects(reader, user)).toEqual(['Changed on the primary']);
    },
    TIMEOUT,
  );

  it(
    "shows a caller its own sends at once, on another API process, while the replica's replay stands still",
    async () => {
      await pair.pauseReplay();
      const user = newUserId();
      await send(writer, user, 'Sent through one process');
      const before = await readsOf(reader);

      expect(await subjects(reader, user)).toEqual(['Sent through one process']);
      await send(reader, user, 'Sent through the same');
      expect(await subjects(reader, user)).toEqual(['Sent through the same', 'Sent through one process']);
      expect(Object.keys(changed(before, await readsOf(reader)))).toEqual(['primary/own_write']);

      // Another caller, who wrote nothing, reads the replica meanwhile: it has not replayed these sends.
      const other = newUserId();
      expect(await subjects(reader, other)).toEqual([]);
      await pair.resumeReplay();
      await pair.waitForReplay();
      expect(await subjects(reader, user)).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'shows a caller a mail it submitted over SMTP through another process at once, while the replay stands still',
    async () => {
      const user = newUserId();
      // The key is made through a third process, and its shared mark aged: only the submission can mark the caller now.
      const { key } = await apiKeyFor(strict, user);
      await pair.waitForReplay();
      await pair.pauseReplay();
      await forgetWritesOf(user);

      const outcome = await submitWithNodemailer(submissionPort(writer), key, {
        from: 'ada@example.com',
        to: 'grace@example.com',
        subject: 'Submitted over SMTP',
        text: 'Hello',
      });
      expect(outcome).toMatchObject({ accepted: true });
      const before = await readsOf(reader);

      expect(await subjects(reader, user)).toEqual(['Submitted over SMTP']);
      expect(Object.keys(changed(before, await readsOf(reader)))).toEqual(['primary/own_write']);
    },
    TIMEOUT,
  );

  it(
    'answers from the primary while the replica is down, and reads the replica again once it is back',
    async () => {
      const user = newUserId();
      await send(writer, user);
      await pair.waitForReplay();
      await forgetWritesOf(user);
      await pair.stopReplica();
      const before = await readsOf(reader);

      expect(await subjects(reader, user)).toEqual(['Your invoice']);
      const down = changed(before, await readsOf(reader));
      expect(Object.keys(down).every((key) => ['primary/unavailable', 'primary/replica_error'].includes(key))).toBe(
        true,
      );
      expect(Object.keys(down)).not.toHaveLength(0);

      await pair.startReplica();
      await replicaUsable(reader);
      const back = await readsOf(reader);
      expect(await subjects(reader, user)).toEqual(['Your invoice']);
      expect(Object.keys(changed(back, await readsOf(reader)))).toEqual(['replica/replica']);
    },
    TIMEOUT,
  );

  it('refuses to start with DATABASE_URL naming the standby, saying where it belongs', async () => {
    await expect(bootTestApp({ DATABASE_URL: pair.replicaUrl })).rejects.toThrow(
      'DATABASE_URL names a standby (the server is in recovery): point it at the primary, and a streaming replica at DATABASE_READ_URL.',
    );
  });
});

const http = (t: TestApp) => t.http;

async function send(app: TestApp, user: string, subject = 'Your invoice'): Promise<string> {
  const response = await http(app).post('/sender/send').set(bearer(user)).send(sendBody({ subject })).expect(201);
  return response.body.id as string;
}

/** The shared mark of the user's send, aged: the reading processes (not the writer) then know of no recent write. */
async function forgetWritesOf(user: string): Promise<void> {
  await primary.query(`UPDATE recent_writes SET written_at = now() - interval '1 hour' WHERE owner_id = $1`, [user]);
}

/** The counters that grew between two readings, by how much. */
function changed(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, value]) => [key, value - (before[key] ?? 0)] as const)
      .filter(([, grown]) => grown > 0),
  );
}
