// Site shaping across worker processes (docs/delivery-and-deliverability.md#direct-delivery), on
// the real database: two PostgresSiteLimits on pools of their own stand for two workers, a third
// for a worker that dies holding a lease. Each test has sites of its own (a random label), so
// leases and paces of one never meet another's.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/platform/database/data-source-options';
import { Database } from '../../../src/platform/database/database';
import { Metrics } from '../../../src/platform/metrics/metrics';
import { ENTITIES } from '../../../src/entities';
import { PostgresSiteLimits, RetryPacing } from '../../../src/delivery/direct/postgres-site-limits';
import { SiteLimitsRepository } from '../../../src/delivery/direct/site-limits.repository';
import type { SiteLease } from '../../../src/delivery/direct/site-limits';
import type { SiteShapingOptions } from '../../../src/delivery/direct/site-shaping';
import { waitFor, waitForAsync } from '../../support/wait-for';
import { DeliverySitesJanitor } from '../../../src/delivery/direct/delivery-sites.janitor';
import { AppConfig } from '../../../src/platform/config/app-config';
import { Test } from '@nestjs/testing';
import { SiteLimits } from '../../../src/delivery/direct/site-limits';
import { SITE_LIMITS_PROVIDERS } from '../../../src/delivery/direct/site-limits.providers';

const BASE: SiteShapingOptions = {
  defaultConnections: 2,
  byHostSuffix: { 'four.test': 4, 'one.test': 1 },
  pauseSeconds: 1,
  quietSeconds: 600,
  leaseSeconds: 30,
};

/** The repository as it is, with each grant's answer counted: a waiter's refused attempt is the signal that it waits. */
class ObservedRepository extends SiteLimitsRepository {
  refusals = 0;
  /** Set: renewals wait for it, to hold one on its way. */
  renewGate?: Promise<void>;
  renewalsHeld = 0;
  renewalsDone = 0;
  override async renew(...args: Parameters<SiteLimitsRepository['renew']>): Promise<boolean> {
    if (this.renewGate) {
      this.renewalsHeld++;
      await this.renewGate;
    }
    try {
      return await super.renew(...args);
    } finally {
      this.renewalsDone++;
    }
  }
  override async grant(...args: Parameters<SiteLimitsRepository['grant']>): Promise<boolean> {
    const granted = await super.grant(...args);
    if (!granted) this.refusals++;
    return granted;
  }
}

describe('PostgresSiteLimits across worker processes', () => {
  const url = process.env.TEST_DATABASE_URL!;
  let pools: DataSource[];
  let reader: DataSource;
  const opened: PostgresSiteLimits[] = [];

  beforeAll(async () => {
    // One pool each for worker a and worker b; the test reads through a third.
    pools = await Promise.all([0, 1].map(() => new DataSource(dataSourceOptions(url, ENTITIES)).initialize()));
    reader = await new DataSource(dataSourceOptions(url, ENTITIES)).initialize();
  });
  afterAll(async () => {
    await Promise.all(opened.map((limits) => limits.onModuleDestroy()));
    await Promise.all([...pools, reader].map((pool) => pool?.destroy()));
  });

  function worker(pool: DataSource, holder: string, options: SiteShapingOptions, retry?: RetryPacing) {
    const repository = new ObservedRepository(new Database(pool));
    // The counters only: no scrape here, so the queues the gauges read are never asked.
    const metrics = new Metrics(undefined as never, undefined as never);
    const limits = new PostgresSiteLimits(repository, metrics, options, holder, retry);
    opened.push(limits);
    return { limits, repository, metrics };
  }

  const twoWorkers = (options: SiteShapingOptions) => [
    worker(pools[0], 'worker-a', options),
    worker(pools[1], 'worker-b', options),
  ];
  const site = (suffix: string) => `mx1.${randomBytes(4).toString('hex')}.${suffix},mx2.example.${suffix}`;
  const liveLeases = async (s: string): Promise<number> =>
    (
      await reader.query(`SELECT count(*)::int AS n FROM delivery_site_leases WHERE site = $1 AND expires_at > now()`, [
        s,
      ])
    )[0].n;
  const pace = async (s: string) =>
    (
      await reader.query(
        `SELECT concurrency, connection_limit AS "limit", extract(epoch FROM paused_until - last_slowed_at)::float8 AS "pausedFor"
         FROM delivery_sites WHERE site = $1`,
        [s],
      )
    )[0];
  const within = (ms: number) => performance.now() + ms;

  it('never lets the site have more leases than its limit, whichever worker asks', async () => {
    const [a, b] = twoWorkers(BASE);
    const shared = site('four.test');
    let held = 0;
    let most = 0;
    const liveAtGrant: number[] = [];
    const grants = { a: 0, b: 0 };
    const connect = async (limits: PostgresSiteLimits, name: 'a' | 'b') => {
      for (let i = 0; i < 4; i++) {
        const lease = await limits.acquire(shared, within(60_000));
        expect(lease).toBeDefined();
        grants[name]++;
        most = Math.max(most, ++held);
        // Counted in the database at the moment of the grant, the other worker's leases with this one's.
        liveAtGrant.push(await liveLeases(shared));
        // The connection's work: long beside a count query on a busy machine, so that the count sees every lease held.
        await sleep(50 + Math.random() * 50);
        held--;
        await lease!.release();
      }
    };
    await Promise.all([
      ...Array.from({ length: 8 }, () => connect(a.limits, 'a')),
      ...Array.from({ length: 8 }, () => connect(b.limits, 'b')),
    ]);

    expect(grants).toEqual({ a: 32, b: 32 });
    expect(Math.max(...liveAtGrant)).toBe(4);
    expect(most).toBe(4);
    expect(await liveLeases(shared)).toBe(0);
  });

  it('halves and pauses the site that said "too fast", while another site keeps its full pace', async () => {
    const [a, b] = twoWorkers({ ...BASE, pauseSeconds: 2 });
    const slowed = site('four.test');
    const other = site('four.test');
    const first = await a.limits.acquire(slowed, within(0));
    expect(first).toBeDefined();

    await b.limits.deferred(slowed, '451 4.7.1 Greylisted, please try again later');
    expect(await pace(slowed)).toEqual({ concurrency: 4, limit: 4, pausedFor: null });
    await b.limits.deferred(slowed, '450 4.7.1 Error: too much mail from 192.0.2.1');
    expect(await pace(slowed)).toEqual({ concurrency: 2, limit: 4, pausedFor: 2 });
    expect((await b.metrics.directRateLimitDeferrals.get()).values).toEqual([
      expect.objectContaining({ labels: { site: slowed }, value: 1 }),
    ]);

    // Paused, for the worker that did not hear the reply too; its pause outlasts a short deadline,
    // so that acquire answers at once instead of waiting for it.
    expect(await a.limits.acquire(slowed, within(0))).toBeUndefined();
    const asked = performance.now();
    expect(await a.limits.acquire(slowed, within(1_000))).toBeUndefined();
    expect(performance.now() - asked).toBeLessThan(1_000);

    // The other site: all four at once, each on its first attempt.
    const others = await Promise.all([a, a, b, b].map((w) => w.limits.acquire(other, within(0))));
    expect(others.every(Boolean)).toBe(true);
    expect(await liveLeases(other)).toBe(4);

    // After the pause: two in all (the first lease still counts), not four.
    const second = await b.limits.acquire(slowed, within(10_000));
    expect(second).toBeDefined();
    expect(await a.limits.acquire(slowed, within(0))).toBeUndefined();
    expect(await liveLeases(slowed)).toBe(2);
    await Promise.all([first, second, ...others].map((lease) => lease!.release()));
  });

  it('gives a slowed site one connection back per quiet period, up to its limit', async () => {
    const [a, b] = twoWorkers({ ...BASE, pauseSeconds: 1, quietSeconds: 2 });
    const slowed = site('four.test');
    const before = Date.now();
    await a.limits.deferred(slowed, '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred');
    expect(await pace(slowed)).toEqual({ concurrency: 2, limit: 4, pausedFor: 1 });

    const grantedAfter: number[] = [];
    const leases: SiteLease[] = [];
    await Promise.all(
      [a, b, a, b].map(async (w) => {
        leases.push((await w.limits.acquire(slowed, within(30_000)))!);
        grantedAfter.push(Date.now() - before);
      }),
    );
    grantedAfter.sort((x, y) => x - y);
    // Two after the pause, the third after one quiet period, the fourth after two.
    expect(grantedAfter[0]).toBeGreaterThanOrEqual(1_000);
    expect(grantedAfter[2]).toBeGreaterThanOrEqual(2_000);
    expect(grantedAfter[3]).toBeGreaterThanOrEqual(4_000);
    // Past the limit, quiet or not.
    expect(await b.limits.acquire(slowed, within(0))).toBeUndefined();
    await Promise.all(leases.map((lease) => lease.release()));
  });

  it('grants a released lease to a waiter of the other worker', async () => {
    const [a, b] = twoWorkers(BASE);
    const single = site('one.test');
    const held = await a.limits.acquire(single, within(0));
    expect(held).toBeDefined();

    let granted: SiteLease | undefined;
    const waiting = b.limits.acquire(single, within(30_000)).then((lease) => (granted = lease));
    await waitFor(() => b.repository.refusals > 0, "b's first refused attempt");
    expect(granted).toBeUndefined();

    await held!.release();
    expect(await waiting).toBeDefined();
    expect(await liveLeases(single)).toBe(1);
    await granted!.release();
  });

  it('answers a waiter told to stop asking at once, well before its deadline, and grants it nothing', async () => {
    const [a, b] = twoWorkers(BASE);
    const single = site('one.test');
    const held = await a.limits.acquire(single, within(0));
    const stop = new AbortController();
    const waiting = b.limits.acquire(single, within(60_000), stop.signal);
    await waitFor(() => b.repository.refusals > 0, "b's first refused attempt");

    const abortedAt = performance.now();
    stop.abort();

    expect(await waiting).toBeUndefined();
    // At most the attempt under way when it was told, not the minute to its deadline.
    expect(performance.now() - abortedAt).toBeLessThan(10_000);
    expect(await liveLeases(single)).toBe(1);
    await held!.release();
    expect(await liveLeases(single)).toBe(0);
  });

  it('wakes a waiter of the same worker as soon as a lease is released there', async () => {
    // Its own timer would have it ask again only after a minute, past this test's time: only the wake-up can grant it.
    const a = worker(pools[0], 'worker-a', BASE, { firstMs: 120_000, maxMs: 120_000 });
    const single = site('one.test');
    const held = await a.limits.acquire(single, within(0));
    const waiting = a.limits.acquire(single, within(300_000));
    await waitFor(() => a.repository.refusals === 1, "the waiter's refused attempt");

    await held!.release();

    const lease = await waiting;
    expect(lease).toBeDefined();
    // Granted at its second attempt: the one the release woke, not a timer's.
    expect(a.repository.refusals).toBe(1);
    await lease!.release();
  });

  it('reclaims the lease of a worker that died holding it, once it expires', async () => {
    const options = { ...BASE, leaseSeconds: 2 };
    const [, b] = twoWorkers(options);
    const dying = await new DataSource(dataSourceOptions(url, ENTITIES)).initialize();
    const c = worker(dying, 'worker-c', options);
    const single = site('one.test');
    expect(await c.limits.acquire(single, within(0))).toBeDefined();
    // Renewed while its holder lives: the lease outlasts its first two seconds.
    const [{ expiresAt: firstExpiry }] = await reader.query(
      `SELECT expires_at AS "expiresAt" FROM delivery_site_leases WHERE site = $1`,
      [single],
    );
    await waitFor(() => Date.now() > firstExpiry.getTime() + 100, 'the first expiry to pass', 10_000);
    const [{ expiresAt: renewed }] = await reader.query(
      `SELECT expires_at AS "expiresAt" FROM delivery_site_leases WHERE site = $1`,
      [single],
    );
    expect(renewed.getTime()).toBeGreaterThan(firstExpiry.getTime());

    // The worker dies: its pool goes, its renewals fail, its lease runs out.
    await dying.destroy();
    const [{ expiresAt: lastExpiry }] = await reader.query(
      `SELECT expires_at AS "expiresAt" FROM delivery_site_leases WHERE site = $1`,
      [single],
    );
    const lease = await b.limits.acquire(single, within(30_000));
    expect(lease).toBeDefined();
    expect(Date.now()).toBeGreaterThanOrEqual(lastExpiry.getTime());
    const holders = await reader.query(`SELECT holder FROM delivery_site_leases WHERE site = $1`, [single]);
    expect(holders).toEqual([{ holder: 'worker-b' }]);
    await lease!.release();
  });

  it('answers undefined at the deadline when the site stays full', async () => {
    const [a, b] = twoWorkers(BASE);
    const single = site('one.test');
    const held = await a.limits.acquire(single, within(0));
    const asked = performance.now();
    expect(await b.limits.acquire(single, asked + 300)).toBeUndefined();
    const waited = performance.now() - asked;
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(1_300);
    expect(b.repository.refusals).toBeGreaterThan(1);
    await held!.release();
  });

  it('writes a held lease again when it was cleared while its holder lived (a stall past its end)', async () => {
    const [a] = twoWorkers({ ...BASE, leaseSeconds: 1 });
    const single = site('one.test');
    const lease = await a.limits.acquire(single, within(0));
    await reader.query(`DELETE FROM delivery_site_leases WHERE site = $1`, [single]);
    await waitForAsync(async () => (await liveLeases(single)) === 1, 'the renewal to write the lease again', 5_000);
    const [{ holder }] = await reader.query(`SELECT holder FROM delivery_site_leases WHERE site = $1`, [single]);
    expect(holder).toBe('worker-a');
    await lease!.release();
    expect(await liveLeases(single)).toBe(0);
  });

  it('sweeps expired leases and sites back at full pace, keeping the slowed, the paused and the busy', async () => {
    const quietSeconds = 600;
    const [a] = twoWorkers({ ...BASE, quietSeconds });
    const janitor = new DeliverySitesJanitor(a.repository, { role: 'worker' } as AppConfig, quietSeconds);
    const [abandoned, busy, idle, slowed, recovered, recovering] = Array.from({ length: 6 }, () => site('four.test'));
    await reader.query(
      `INSERT INTO delivery_site_leases (id, site, holder, expires_at) VALUES (gen_random_uuid(), $1, 'gone', now() - interval '1 second')`,
      [abandoned],
    );
    const held = await a.limits.acquire(busy, within(0));
    await (await a.limits.acquire(idle, within(0)))!.release();
    await a.limits.deferred(slowed, '421 4.7.0 Error: too many connections from 192.0.2.1');
    // Slowed to 1 of 4: full again three quiet periods after, one second past or one minute short.
    await reader.query(
      `INSERT INTO delivery_sites (site, connection_limit, concurrency, paused_until, last_slowed_at) VALUES
         ($1, 4, 1, now() - interval '1 hour', now() - 3 * $3::integer * interval '1 second' - interval '1 second'),
         ($2, 4, 1, now() - interval '1 hour', now() - 3 * $3::integer * interval '1 second' + interval '1 minute')`,
      [recovered, recovering, quietSeconds],
    );

    const deleted = await janitor.sweep();
    expect(deleted.leases).toBeGreaterThanOrEqual(1);
    expect(deleted.sites).toBeGreaterThanOrEqual(3);
    const leaseSites = await reader.query(`SELECT site FROM delivery_site_leases WHERE site = ANY($1)`, [
      [abandoned, busy],
    ]);
    expect(leaseSites).toEqual([{ site: busy }]);
    const kept = (
      await reader.query(`SELECT site FROM delivery_sites WHERE site = ANY($1)`, [
        [abandoned, busy, idle, slowed, recovered, recovering],
      ])
    ).map((r: { site: string }) => r.site);
    expect(kept.sort()).toEqual([busy, slowed, recovering].sort());
    await held!.release();
  });

  it('lets a renewal on its way land before the release deletes the lease, so that it does not write it again', async () => {
    const [a] = twoWorkers({ ...BASE, leaseSeconds: 1 });
    const single = site('one.test');
    const lease = await a.limits.acquire(single, within(0));
    let open!: () => void;
    a.repository.renewGate = new Promise((resolve) => (open = resolve));
    await waitFor(() => a.repository.renewalsHeld > 0, 'a renewal on its way', 5_000);
    const releasing = lease!.release();
    open();
    await releasing;
    await waitFor(() => a.repository.renewalsDone > 0, 'the held renewal to land', 5_000);
    expect(await liveLeases(single)).toBe(0);
    expect(await reader.query(`SELECT id FROM delivery_site_leases WHERE site = $1`, [single])).toEqual([]);
  });

  it('takes its limits from DELIVERY_SITE_CONNECTIONS when wired by its providers', async () => {
    const config = AppConfig.fromEnvironment({
      JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters!',
      DELIVERY_SITE_CONNECTIONS: '2,wired.test=1',
    });
    const module = await Test.createTestingModule({
      providers: [
        ...SITE_LIMITS_PROVIDERS,
        { provide: Database, useValue: new Database(pools[0]) },
        { provide: Metrics, useValue: new Metrics(undefined as never, undefined as never) },
        { provide: AppConfig, useValue: config },
      ],
    }).compile();
    const limits = module.get(SiteLimits);
    const wired = site('wired.test');
    const plain = site('plain.test');
    const held = [
      await limits.acquire(wired, within(0)),
      await limits.acquire(plain, within(0)),
      await limits.acquire(plain, within(0)),
    ];
    expect(held.every(Boolean)).toBe(true);
    expect(await limits.acquire(wired, within(0))).toBeUndefined();
    expect(await limits.acquire(plain, within(0))).toBeUndefined();
    await Promise.all(held.map((lease) => lease!.release()));
    await module.close();
  });
});
