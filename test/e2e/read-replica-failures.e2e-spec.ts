// A read replica that fails in the ways a network and an operator make it fail (SPEC §8: no error
// to the client, docs/scaling.md#read-replicas): one that goes silent mid-read, behind a TCP proxy
// that stops passing bytes, and one promoted out of recovery. A real primary and standby of
// Debian's PostgreSQL (test/support/replica.ts); skipped, saying so, without them.
import { Pool } from 'pg';
import { ReadReplica } from '../../src/platform/database/replica/read-replica';
import { ReplicaPair, startStreamingReplica, streamingReplicaMissing } from '../support/replica';
import { readsOf, replicaUsable, subjects } from '../support/replica-reads';
import { noticeSkip } from '../support/skip-notice';
import { TcpProxy } from '../support/tcp-proxy';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitFor } from '../support/wait-for';

const TIMEOUT = 120_000;

const missing = streamingReplicaMissing();
if (missing) noticeSkip(`read-replica-failures: skipped, ${missing}`);
const describeWithReplica = missing ? describe.skip : describe;

let pair: ReplicaPair;
let primary: Pool;
let proxy: TcpProxy;
/** Reads the replica through the proxy. */
let app: TestApp | undefined;

describeWithReplica('a read replica that fails', () => {
  beforeAll(async () => {
    pair = await startStreamingReplica();
    primary = new Pool({ connectionString: pair.primaryUrl, max: 2 });
    const replica = new URL(pair.replicaUrl);
    proxy = await TcpProxy.listen({ host: replica.hostname, port: Number(replica.port) });
    replica.port = String(proxy.port);
    app = await bootTestApp({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: replica.toString(),
      DATABASE_READ_MAX_LAG_MS: '60000',
    });
    await replicaUsable(app);
  }, TIMEOUT);

  afterAll(async () => {
    proxy?.freeze(false);
    await app?.close();
    await proxy?.close();
    await primary?.end();
    await pair?.stop();
  }, TIMEOUT);

  it(
    'answers a read the silent replica holds from the primary, and still shuts down',
    async () => {
      const sut = app!;
      const user = newUserId();
      // The list before: read on the replica, over connections the pool keeps.
      expect(await subjects(sut, user)).toEqual([]);
      expect(Object.keys(await readsOf(sut))).toEqual(['replica/replica']);

      proxy.freeze();
      const before = await readsOf(sut);
      expect(await subjects(sut, user)).toEqual([]);
      const after = await readsOf(sut);
      expect(after['replica/replica']).toBe(before['replica/replica']);
      expect((after['primary/replica_error'] ?? 0) + (after['primary/unavailable'] ?? 0)).toBeGreaterThan(0);

      // Closing waits for no read on the silent connections (each has its time limit).
      app = undefined;
      await sut.close();
    },
    TIMEOUT,
  );

  it(
    'stops reading a replica promoted out of recovery, however current it looks',
    async () => {
      proxy.freeze(false);
      const sut = (app = await bootTestApp({
        DATABASE_URL: pair.primaryUrl,
        DATABASE_READ_URL: pair.replicaUrl,
        DATABASE_READ_MAX_LAG_MS: '60000',
      }));
      await replicaUsable(sut);
      const replica = new Pool({ connectionString: pair.replicaUrl, max: 1 });
      await replica.query(`SELECT pg_promote(wait => true)`);
      await replica.end();

      await waitFor(() => !sut.app.get(ReadReplica).state().usable, 'the promoted server to be left', 10_000);
      const user = newUserId();
      await sut.http.get('/user/messages').set(bearer(user)).expect(200);
      expect(Object.keys(await readsOf(sut))).toEqual(['primary/unavailable']);
    },
    TIMEOUT,
  );
});
