import { DirectMailer } from '../../../src/delivery/direct/direct.mailer';
import { LocalSiteLimits } from '../../../src/delivery/direct/local-site-limits';
import { siteShapingOf } from '../../../src/delivery/direct/site-limits.providers';
import { DEFAULT_SITE_SHAPING } from '../../../src/delivery/direct/site-shaping';
import type { Site } from '../../../src/delivery/direct/site-limits';
import { NoMtaSts } from '../../../src/delivery/direct/mta-sts-source';
import { waitFor } from '../../support/wait-for';
import { TestApp } from '../../support/test-app';
import {
  directDeliveryWorld,
  directMailer,
  errorOf,
  mail,
  receiptOf,
} from '../../support/delivery/direct-delivery-world';
// docs/delivery-and-deliverability.md#direct-delivery: SMTP_URL=direct's transactions, one per
// recipient domain, against real MX hosts: SMTP servers on loopback addresses of their own named
// by a real DNS server. The app's own DirectMailer is asked directly (Mailer.deliver), so that each
// domain's transaction is seen as the hand-over receives it.
// This file: connections per site, their leases, deadlines and pauses.

describe('direct delivery to MX hosts (SMTP_URL=direct): connections and site limits', () => {
  const world = directDeliveryWorld();
  const { sinks } = world;
  let t: TestApp;
  beforeAll(() => {
    ({ t } = world);
  });

  describe('with site limits that record what they are told', () => {
    /** LocalSiteLimits that keeps every 4xx reported to it. */
    class RecordingLimits extends LocalSiteLimits {
      readonly replies: [Site, string][] = [];
      override deferred(site: Site, reply: string): Promise<void> {
        this.replies.push([site, reply]);
        return super.deferred(site, reply);
      }
    }
    let limits: RecordingLimits;
    let sut: DirectMailer;
    beforeAll(() => {
      sut = directMailer(
        t,
        // A pool of two loopback source addresses, and one message a connection, so that each message shows its source.
        { DELIVERY_SOURCE_ADDRESSES: '127.0.0.50,127.0.0.51', DELIVERY_MESSAGES_PER_CONNECTION: '1' },
        new NoMtaSts(),
        (config) => (limits = new RecordingLimits(siteShapingOf(config))),
      );
    });
    afterAll(() => sut.onModuleDestroy());

    it('binds each connection to the next of DELIVERY_SOURCE_ADDRESSES', async () => {
      await sut.deliver(mail(['s1@alpha.test']));
      await sut.deliver(mail(['s2@alpha.test']));

      expect(sinks.alpha.sessions.slice(-2).map((s) => s.remoteAddress)).toEqual(['127.0.0.50', '127.0.0.51']);
    });

    it("reports every 4xx of a site to its limits: a refused greeting and a recipient's", async () => {
      sinks.grey.greylist.set('late@grey.test', 1);

      await sut.deliver(mail(['late@grey.test']));
      await sut.deliver(mail(['l@pref.test']));

      expect(limits.replies).toEqual([
        ['mx.grey.test', expect.stringMatching(/^451 4\.7\.1 Greylisted/)],
        ['busy.pref.test,down.pref.test,up.pref.test', expect.stringMatching(/^421 4\.7\.0 Too many connections/)],
      ]);
    });

    it('reports a 4xx to EHLO to its limits, as one to the greeting', async () => {
      const seen = limits.replies.length;

      const error = errorOf((await sut.deliver(mail(['c@crowded.test'])))[0]);

      expect(error.message).toMatch(/^451 4\.4\.1 .*421 4\.7\.0 mx\.crowded\.test Too many concurrent/);
      expect(limits.replies.slice(seen)).toEqual([
        ['mx.crowded.test', expect.stringMatching(/^421 4\.7\.0 mx\.crowded\.test Too many concurrent/)],
      ]);
    });

    it('closes a connection past DELIVERY_MESSAGES_PER_CONNECTION, giving its lease back', async () => {
      const closed = sinks.beta.closed;

      await sut.deliver(mail(['c@beta.test']));

      await waitFor(() => sinks.beta.closed > closed, 'the connection to close');
      expect(limits.openAt('mx.beta.test')).toBe(0);
    });
  });

  it("holds a site to its connection limit, messages waiting for the site's connection taking it in turn", async () => {
    const limits = new LocalSiteLimits({ ...DEFAULT_SITE_SHAPING, defaultConnections: 1, byHostSuffix: {} });
    const sut = directMailer(t, { DELIVERY_SITE_CONNECTIONS: '1' }, new NoMtaSts(), () => limits);
    const before = sinks.alpha.connections;

    const results = await Promise.all([1, 2, 3].map((i) => sut.deliver(mail([`w${i}@alpha.test`]))));

    expect(results.map(([transaction]) => receiptOf(transaction).reply)).toEqual([
      expect.stringMatching(/^250 /),
      expect.stringMatching(/^250 /),
      expect.stringMatching(/^250 /),
    ]);
    // One connection, handed from one message to the next, not one a message after the last closed.
    expect(sinks.alpha.connections - before).toBe(1);
    expect(new Set(sinks.alpha.sessions.slice(-3).map((s) => s.sessionId)).size).toBe(1);
    expect(limits.openAt('mx.alpha.test')).toBe(1);
    await sut.onModuleDestroy();
    expect(limits.openAt('mx.alpha.test')).toBe(0);
  });

  it('closes an idle connection after a few seconds, giving its lease back', async () => {
    const limits = new LocalSiteLimits(DEFAULT_SITE_SHAPING);
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    const closed = sinks.beta.closed;

    await sut.deliver(mail(['i@beta.test']));

    expect(limits.openAt('mx.beta.test')).toBe(1);
    await waitFor(() => sinks.beta.closed > closed, 'the idle connection to close');
    await waitFor(() => limits.openAt('mx.beta.test') === 0, 'its lease to come back');
  });

  it("ends a domain's send at its deadline when the server stalls after DATA: connection destroyed, lease back, deferred", async () => {
    let answer!: () => void;
    const stalled = new Promise<'accept'>((resolve) => (answer = () => resolve('accept')));
    sinks.slow.reply = () => stalled;
    const limits = new LocalSiteLimits(DEFAULT_SITE_SHAPING);
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits, 1_500);
    const closed = sinks.slow.closed;

    const [transaction] = await sut.deliver(mail(['d@slow.test']));

    const error = errorOf(transaction);
    expect(error).toMatchObject({ permanent: false, route: { host: 'mx.slow.test', tls: false } });
    expect(error.message).toMatch(/^Timeout: no reply from mx\.slow\.test .*may have been accepted/);
    expect(limits.openAt('mx.slow.test')).toBe(0);
    await waitFor(() => sinks.slow.closed > closed, 'the stalled connection to be closed');
    answer();
    sinks.slow.reply = () => 'accept';
    await sut.onModuleDestroy();
  });

  it("waits only briefly for a full site's connection, then defers that domain's recipients (451 4.4.5)", async () => {
    let answer!: () => void;
    const stalled = new Promise<'accept'>((resolve) => (answer = () => resolve('accept')));
    sinks.slow.reply = () => stalled;
    const limits = new LocalSiteLimits({ ...DEFAULT_SITE_SHAPING, defaultConnections: 1, byHostSuffix: {} });
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    const seen = sinks.slow.mailFrom.length;
    const first = sut.deliver(mail(['f1@slow.test']));
    await waitFor(() => sinks.slow.mailFrom.length > seen, "the first message's transaction to begin");

    // The site's one connection is held by a send that still has most of its 60 s.
    const [second] = await sut.deliver(mail(['f2@slow.test']));

    expect(errorOf(second).message).toMatch(/^451 4\.4\.5 Every connection to slow\.test's mail servers/);
    answer();
    expect(receiptOf((await first)[0]).reply).toMatch(/^250 /);
    sinks.slow.reply = () => 'accept';
    await sut.onModuleDestroy();
  });

  it("defers a domain with its own words, not the store's, when the site's limits cannot be asked", async () => {
    class FailingLimits extends LocalSiteLimits {
      override acquire(): Promise<undefined> {
        return Promise.reject(new Error('relation "delivery_sites" does not exist'));
      }
    }
    const sut = directMailer(t, {}, new NoMtaSts(), (config) => new FailingLimits(siteShapingOf(config)));

    const [transaction] = await sut.deliver(mail(['p1@fast.test']));

    expect(errorOf(transaction)).toMatchObject({ permanent: false });
    expect(errorOf(transaction).message).toBe(
      '451 4.3.0 Delivery to fast.test could not be paced just now, will try again',
    );
    await sut.onModuleDestroy();
  });

  it('says a site is paused, not busy, when its pause outlasts the wait for a connection', async () => {
    /** Grants no lease once told "too fast", as the store does while the pause runs. */
    class PausingLimits extends LocalSiteLimits {
      private paused = false;
      override acquire(site: Site, deadline: number, signal?: AbortSignal) {
        return this.paused ? Promise.resolve(undefined) : super.acquire(site, deadline, signal);
      }
      override deferred(site: Site, reply: string) {
        this.paused = true;
        return super.deferred(site, reply);
      }
    }
    const limits = new PausingLimits(siteShapingOf(t.config));
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    expect(receiptOf((await sut.deliver(mail(['p2@fast.test'])))[0]).reply).toMatch(/^250 /);
    await limits.deferred('mx.fast.test', '421 4.7.0 Error: too many messages, try again in 5 minutes');

    const [second] = await sut.deliver(mail(['p3@fast.test']));

    expect(errorOf(second).message).toMatch(/^451 4\.4\.5 .*is paused: the site asked us to slow down/);
    await sut.onModuleDestroy();
  });
});
