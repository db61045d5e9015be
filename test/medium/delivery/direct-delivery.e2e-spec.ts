import { DirectMailer } from '../../../src/delivery/direct/direct.mailer';
import { NoMtaSts } from '../../../src/delivery/direct/mta-sts-source';
import { Mailer, MailDeliveryError } from '../../../src/delivery/mailer/mailer';
import { isAddressFailure } from '../../../src/delivery/attempt-decision';
import { waitFor } from '../../support/wait-for';
import { TestApp } from '../../support/test-app';
import {
  directDeliveryWorld,
  directMailer,
  errorOf,
  forDomain,
  HELO,
  mail,
  receiptOf,
} from '../../support/delivery/direct-delivery-world';
// docs/delivery-and-deliverability.md#direct-delivery: SMTP_URL=direct's transactions, one per
// recipient domain, against real MX hosts: SMTP servers on loopback addresses of their own named
// by a real DNS server. The app's own DirectMailer is asked directly (Mailer.deliver), so that each
// domain's transaction is seen as the hand-over receives it.

describe('direct delivery to MX hosts (SMTP_URL=direct)', () => {
  const world = directDeliveryWorld();
  const { sinks } = world;
  let t: TestApp;
  let sut: Mailer;
  beforeAll(() => {
    ({ t, sut } = world);
  });

  it('is the mailer SMTP_URL=direct chooses', () => {
    expect(sut).toBeInstanceOf(DirectMailer);
  });

  it("makes one transaction per domain, each with its own fate, and a greylisted domain's is retried alone", async () => {
    sinks.grey.greylist.set('g@grey.test', 1);
    const outgoing = mail(['a@alpha.test', 'b@beta.test', 'g@grey.test'], { cc: ['gone@beta.test'] });

    const transactions = await sut.deliver(outgoing);

    expect(transactions).toHaveLength(3);
    const alpha = receiptOf(forDomain(transactions, 'alpha.test'));
    expect(alpha).toEqual({
      reply: expect.stringMatching(/^250 /),
      rejected: [],
      route: { host: 'mx.alpha.test', tls: false },
    });
    const beta = receiptOf(forDomain(transactions, 'beta.test'));
    expect(forDomain(transactions, 'beta.test')!.recipients).toEqual(['b@beta.test', 'gone@beta.test']);
    expect(beta.rejected).toEqual([
      { address: 'gone@beta.test', reply: expect.stringMatching(/^550 5\.1\.1 /), permanent: true },
    ]);
    expect(beta.route).toEqual({ host: 'mx.beta.test', tls: false });
    const grey = errorOf(forDomain(transactions, 'grey.test'));
    expect(grey).toBeInstanceOf(MailDeliveryError);
    expect(grey).toMatchObject({ permanent: false, route: { host: 'mx.grey.test', tls: false } });
    expect(grey.message).toMatch(/451 4\.7\.1 Greylisted/);
    expect(sinks.alpha.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['a@alpha.test'] })]);
    expect(sinks.beta.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['b@beta.test'] })]);
    expect(sinks.grey.acceptedFor(outgoing.id)).toEqual([]);

    // The retry: the greylisted domain's recipient alone (the hand-over sends only those left).
    const retry = await sut.deliver({ ...outgoing, to: ['g@grey.test'], cc: [] });

    expect(receiptOf(retry[0]).route).toEqual({ host: 'mx.grey.test', tls: false });
    expect(sinks.grey.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['g@grey.test'] })]);
    expect(sinks.alpha.acceptedFor(outgoing.id)).toHaveLength(1);
  });

  it('fails a null MX domain and a domain that does not exist at once, as address failures of each recipient', async () => {
    const seen = sinks.alpha.mailFrom.length;

    const transactions = await sut.deliver(mail(['x@null.test', 'y@nowhere.test', 'z@nowhere.test']));

    const nullMx = errorOf(forDomain(transactions, 'null.test'));
    const nxdomain = errorOf(forDomain(transactions, 'nowhere.test'));
    expect(nullMx).toMatchObject({ permanent: true, command: 'RCPT TO', route: undefined });
    expect(nullMx.refused).toEqual([
      { address: 'x@null.test', reply: expect.stringMatching(/^550 5\.1\.10 /), permanent: true },
    ]);
    expect(nxdomain).toMatchObject({ permanent: true, command: 'RCPT TO' });
    expect(nxdomain.refused.map((r) => r.address)).toEqual(['y@nowhere.test', 'z@nowhere.test']);
    expect(nxdomain.message).toMatch(/^550 5\.1\.2 /);
    // Read by §9's rule as the address's own failure: suppressed.
    for (const error of [nullMx, nxdomain]) expect(isAddressFailure(error.message, error.command)).toBe(true);
    expect(sinks.alpha.mailFrom.length).toBe(seen);
  });

  it("tries MX hosts by preference, past a refused connection and a 421 greeting, and a domain's own address without MX", async () => {
    const busyBefore = sinks.busy.connections;

    const [pref, bare] = await Promise.all([sut.deliver(mail(['p@pref.test'])), sut.deliver(mail(['q@bare.test']))]);

    expect(receiptOf(pref[0]).route).toEqual({ host: 'up.pref.test', tls: false });
    expect(sinks.busy.connections).toBe(busyBefore + 1);
    expect(sinks.busy.mailFrom).toEqual([]);
    expect(receiptOf(bare[0]).route).toEqual({ host: 'bare.test', tls: false });
  });

  it('says EHLO DELIVERY_HELO_NAME', async () => {
    await sut.deliver(mail(['h@bare.test']));

    expect(sinks.bare.sessions.map((s) => s.heloName)).toEqual(expect.arrayContaining([HELO]));
    expect(new Set(sinks.bare.sessions.map((s) => s.heloName))).toEqual(new Set([HELO]));
  });

  it('uses STARTTLS when offered', async () => {
    const [transaction] = await sut.deliver(mail(['s@tls.test']));

    expect(receiptOf(transaction).route).toEqual({ host: 'mx.tls.test', tls: true });
    expect(sinks.tls.sessions.at(-1)?.secure).toBe(true);
  });

  it('builds no TLS context per STARTTLS: every connection shares the one of the CAs it trusts', async () => {
    const oneEach = directMailer(t, { DELIVERY_MESSAGES_PER_CONNECTION: '1' }, new NoMtaSts());
    // Node's own module, the one nodemailer's STARTTLS goes through.
    const tls = jest.requireActual<typeof import('node:tls')>('node:tls');
    const built = jest.spyOn(tls, 'createSecureContext');
    try {
      await oneEach.deliver(mail(['c1@tls.test']));
      const first = built.mock.calls.length;
      await oneEach.deliver(mail(['c2@tls.test']));
      await oneEach.deliver(mail(['c3@tls.test']));

      expect(sinks.tls.sessions.slice(-3).map((s) => s.secure)).toEqual([true, true, true]);
      // At most the trust itself, once, at its first use.
      expect(first).toBeLessThanOrEqual(1);
      expect(built.mock.calls.length).toBe(first);
    } finally {
      built.mockRestore();
      await oneEach.onModuleDestroy();
    }
  });

  it('sends the messages of a site over one connection, RSET between them', async () => {
    const before = sinks.alpha.connections;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const outgoing = mail([`r${i}@alpha.test`]);
      ids.push(outgoing.id);
      expect(receiptOf((await sut.deliver(outgoing))[0]).reply).toMatch(/^250 /);
    }

    const sessions = sinks.alpha.sessions.slice(-3).map((s) => s.sessionId);
    expect(new Set(sessions).size).toBe(1);
    expect(sinks.alpha.connections - before).toBeLessThanOrEqual(1);
    expect(ids.map((id) => sinks.alpha.acceptedFor(id).length)).toEqual([1, 1, 1]);
  });

  it('sends no more over an open connection of a site that said "too fast": the next message waits out its pause', async () => {
    sinks.fast.reply = () => ({ code: 451, message: '4.7.650 The mail server has been temporarily rate limited' });
    const first = errorOf((await sut.deliver(mail(['a@fast.test'])))[0]);
    expect(first.message).toMatch(/^451 4\.7\.650 /);
    sinks.fast.reply = () => 'accept';
    const connections = sinks.fast.connections;

    // The app's limits pause the site (DELIVERY_SITE_PAUSE_SECONDS' default, past the send's wait): deferred, not sent.
    const next = errorOf((await sut.deliver(mail(['b@fast.test'])))[0]);

    expect(next).toMatchObject({ permanent: false });
    expect(next.message).toMatch(/^451 4\.4\.5 /);
    expect(sinks.fast.connections).toBe(connections);
    expect(sinks.fast.mailFrom).toHaveLength(1);
    await waitFor(() => sinks.fast.closed === connections, 'the connection that heard it to be closed');
  });

  it('counts connections and deliveries per site on GET /metrics', async () => {
    const text = (await t.http.get('/metrics').expect(200)).text;

    expect(text).toMatch(/mailroom_direct_connections_total\{site="mx.alpha.test",tls="no"\} [1-9]/);
    expect(text).toMatch(/mailroom_direct_connections_total\{site="mx.tls.test",tls="yes"\} [1-9]/);
    expect(text).toMatch(/mailroom_direct_deliveries_total\{site="mx.grey.test",outcome="deferred"\} 1/);
    expect(text).toMatch(/mailroom_direct_deliveries_total\{site="mx.beta.test",outcome="sent"\} [1-9]/);
  });

  describe('a host whose TLS handshake fails', () => {
    // One message a connection, so that each message shows whether STARTTLS is tried again.
    let oneEach: DirectMailer;
    beforeAll(() => {
      oneEach = directMailer(t, { DELIVERY_MESSAGES_PER_CONNECTION: '1' }, new NoMtaSts());
    });
    afterAll(() => oneEach.onModuleDestroy());

    it('gets the message in clear at once, and is remembered: the next connection does not try TLS', async () => {
      const before = sinks.broken.connections;

      const [first] = await oneEach.deliver(mail(['t1@broken.test']));

      expect(receiptOf(first).route).toEqual({ host: 'mx.broken.test', tls: false });
      // The TLS attempt, then the session in clear.
      expect(sinks.broken.connections - before).toBe(2);

      const [second] = await oneEach.deliver(mail(['t2@broken.test']));

      expect(receiptOf(second).route).toEqual({ host: 'mx.broken.test', tls: false });
      expect(sinks.broken.connections - before).toBe(3);
      expect(sinks.broken.sessions.slice(-2).map((s) => s.secure)).toEqual([false, false]);
    });
  });
});
