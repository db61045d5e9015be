// A second author trying to break direct delivery (docs/delivery-and-deliverability.md#direct-delivery)
// through the whole app: SMTP_URL=direct, MX hosts on loopback named by a real DNS server, each a
// real SMTP server (or, for a server that hangs up mid-transaction, a raw TCP one).
import { randomBytes } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import { sendBody } from '../../support/factories';
import type { DeliveredMessage } from '../../support/delivery/delivered-message';
import { TestMxHosts } from '../../support/mx-hosts';
import type { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForAsync, waitForStatus } from '../../support/wait-for';

const TIMEOUT = 90_000;
type Message = DeliveredMessage;

/**
 * An SMTP server that greets, says yes to EHLO, MAIL FROM and RCPT TO, then closes the connection
 * without a word: a server crashing, or a firewall cutting the session, mid-transaction.
 */
class HangUpAfterRcpt {
  rcpts = 0;
  private readonly server: Server = createServer((socket) => this.serve(socket));
  private readonly sockets = new Set<Socket>();

  async start(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.server.once('error', reject).listen(port, host, resolve));
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('220 drop.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-drop.test\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') socket.write('250 2.1.0 Ok\r\n');
        else if (verb === 'RCPT') {
          this.rcpts++;
          // Yes, and gone: the connection ends before DATA can be said.
          socket.end('250 2.1.5 Ok\r\n');
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('250 Ok\r\n');
      }
    });
  }
}

describe('direct delivery against a hostile world (SMTP_URL=direct)', () => {
  const mx = new TestMxHosts();
  const dropper = new HangUpAfterRcpt();
  let alpha: SmtpSink;
  let beta: SmtpSink;
  let idn: SmtpSink;
  let far: SmtpSink;
  let hint: SmtpSink;
  let many: SmtpSink[];
  let t: TestApp;

  beforeAll(async () => {
    await mx.start();
    alpha = await mx.host('mx.alpha.test');
    beta = await mx.host('mx.beta.test');
    idn = await mx.host('mx.xn--bcher-kva.example');
    far = await mx.host('mx.far.test');
    hint = await mx.host('mx.hint.test');
    await dropper.start(mx.port, mx.deadHost('mx.drop.test'));
    many = await Promise.all([0, 1, 2, 3, 4].map((i) => mx.host(`mx${i}.many.test`)));
    mx.dns.publishMx('alpha.test', { preference: 10, exchange: 'mx.alpha.test' });
    mx.dns.publishMx('beta.test', { preference: 10, exchange: 'mx.beta.test' });
    mx.dns.publishMx('xn--bcher-kva.example', { preference: 10, exchange: 'mx.xn--bcher-kva.example' });
    mx.dns.publishMx('drop.test', { preference: 10, exchange: 'mx.drop.test' });
    mx.dns.publishMx('hint.test', { preference: 10, exchange: 'mx.hint.test' });
    // 49 MX hosts with long names that take no connection, then the one that does, last by preference.
    // Names of 63-octet labels, unlike each other: the site they make is some 6,000 characters.
    const dead = Array.from(
      { length: 49 },
      (_, i) =>
        `mx${i}.${randomBytes(31).toString('hex').slice(0, 61)}x.${randomBytes(31).toString('hex').slice(0, 61)}y.fifty.test`,
    );
    for (const host of dead) mx.deadHost(host);
    mx.dns.publishMx('fifty.test', ...dead.map((exchange, i) => ({ preference: i, exchange })), {
      preference: 100,
      exchange: 'mx.far.test',
    });
    // An MX that names a host with no address, then one that has one; and a domain with only the former.
    mx.dns.publishMx(
      'half.test',
      { preference: 10, exchange: 'mx.noaddress.test' },
      { preference: 20, exchange: 'mx.alpha.test' },
    );
    mx.dns.publishMx('noaddress.test', { preference: 10, exchange: 'mx.noaddress.test' });
    // The name exists (it has a TXT record) but has no A or AAAA.
    mx.dns.publish('mx.noaddress.test', 'not a mail server');
    for (let i = 0; i < 50; i++)
      mx.dns.publishMx(`d${i}.many.test`, { preference: 10, exchange: `mx${i % 5}.many.test` });
    t = await bootTestApp(
      {
        ROLE: 'all',
        ...mx.directDeliveryEnv(),
        MAX_RECIPIENTS: '50',
        DELIVERY_RETRY_DELAYS: '1,600',
      },
      { isolatedDatabase: true },
    );
  }, TIMEOUT);
  afterAll(async () => {
    await t?.close();
    await dropper.stop();
    await mx.stop();
  });

  const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> => {
    const response = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields));
    if (response.status !== 201) throw new Error(`POST /sender/send answered ${response.status}: ${response.text}`);
    return response.body;
  };
  const messageOf = async (userId: string, id: string): Promise<Message> =>
    (await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200)).body;
  const deliveredTo = (sink: SmtpSink, id: string) => sink.acceptedFor(id).flatMap((m) => m.to);

  it(
    'delivers to an IDN domain through its A-label MX',
    async () => {
      const userId = newUserId('hostile');
      const accepted = await send(userId, { to: ['user@bücher.example'] });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');

      expect(sent.recipients.map((r) => [r.status, r.route?.host])).toEqual([['sent', 'mx.xn--bcher-kva.example']]);
      expect(deliveredTo(idn, accepted.id)).toEqual(['user@bücher.example']);
      // The server offered no SMTPUTF8: the envelope said the domain in its A-label form, no byte beyond ASCII.
      expect(idn.commands.filter((line) => /^RCPT TO:/i.test(line))).toEqual(['RCPT TO:<user@xn--bcher-kva.example>']);
    },
    TIMEOUT,
  );

  it(
    'delivers to the last of 50 MX hosts with names of the longest labels when the 49 before it refuse connections',
    async () => {
      const userId = newUserId('hostile');
      const accepted = await send(userId, { to: ['x@fifty.test'] });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');

      expect(sent.recipients.map((r) => [r.status, r.route?.host])).toEqual([['sent', 'mx.far.test']]);
      expect(deliveredTo(far, accepted.id)).toEqual(['x@fifty.test']);
    },
    TIMEOUT,
  );

  it(
    'passes over an MX host that has no address to the next, and defers a domain whose only MX has none',
    async () => {
      const userId = newUserId('hostile');
      const half = await send(userId, { to: ['h@half.test'] });
      const none = await send(userId, { to: ['n@noaddress.test'] });

      const sent: Message = await waitForStatus(t.http, userId, half.id, 'sent');
      const deferred: Message = await waitForStatus(t.http, userId, none.id, 'deferred');

      expect(sent.recipients.map((r) => [r.status, r.route?.host])).toEqual([['sent', 'mx.alpha.test']]);
      expect(deliveredTo(alpha, half.id)).toEqual(['h@half.test']);
      expect(deferred.recipients.map((r) => [r.status, r.detail])).toEqual([
        ['deferred', expect.stringMatching(/^451 4\.4\.1 .*mx\.noaddress\.test: no address/)],
      ]);
    },
    TIMEOUT,
  );

  it(
    'delivers one message to 50 recipients of 50 domains, each once, each with its own MX host',
    async () => {
      const userId = newUserId('hostile');
      const to = Array.from({ length: 50 }, (_, i) => `r${i}@d${i}.many.test`);
      const accepted = await send(userId, { to });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent', 60_000);

      expect(sent.recipients.map((r) => [r.email, r.status, r.route?.host])).toEqual(
        to.map((email, i) => [email, 'sent', `mx${i % 5}.many.test`]),
      );
      const delivered = many.flatMap((sink) => deliveredTo(sink, accepted.id));
      expect(delivered.sort()).toEqual([...to].sort());
    },
    TIMEOUT,
  );

  it(
    'defers, and delivers nothing twice, when the server hangs up after RCPT TO',
    async () => {
      const userId = newUserId('hostile');
      const accepted = await send(userId, { to: ['d@drop.test'], cc: ['a@alpha.test'] });
      const deferred: Message = await waitForStatus(t.http, userId, accepted.id, 'deferred');

      expect(deferred.recipients.map((r) => [r.email, r.status])).toEqual([
        ['d@drop.test', 'deferred'],
        ['a@alpha.test', 'sent'],
      ]);
      expect(deferred.recipients[0].detail).toMatch(/Connection closed unexpectedly/);
      expect(deferred.recipients[0].route).toEqual({ host: 'mx.drop.test', tls: false });
      expect(dropper.rcpts).toBe(1);
      // Its retry meets the same hang-up; the recipient its domain's server took is not sent again.
      await waitForAsync(
        async () =>
          (await messageOf(userId, accepted.id)).statusHistory.filter((e) => e.status === 'deferred').length >= 2,
        'a second deferral',
        30_000,
      );
      expect(dropper.rcpts).toBeGreaterThanOrEqual(2);
      expect(deliveredTo(alpha, accepted.id)).toEqual(['a@alpha.test']);
    },
    TIMEOUT,
  );

  it(
    'honours "try again in 2 minutes" for the next attempt when it is within DELIVERY_RETRY_DELAYS',
    async () => {
      const userId = newUserId('hostile');
      hint.refuseWith.set('later@hint.test', { code: 451, message: '4.7.1 Greylisted, try again in 2 minutes' });
      const accepted = await send(userId, { to: ['later@hint.test'] });
      const deferred: Message = await waitForStatus(t.http, userId, accepted.id, 'deferred');

      const deferredAt = Date.parse(deferred.statusHistory.filter((e) => e.status === 'deferred').at(-1)!.at);
      const next = Date.parse(deferred.nextAttemptAt!);
      // Two minutes, not the schedule's first delay of 1 s.
      expect(next - deferredAt).toBeGreaterThanOrEqual(115_000);
      expect(next - deferredAt).toBeLessThanOrEqual(125_000);
      expect(deferred.recipients[0].detail).toMatch(/try again in 2 minutes/);
    },
    TIMEOUT,
  );

  it(
    'never shows a bcc recipient at another domain, to itself or anyone, in the headers',
    async () => {
      const userId = newUserId('hostile');
      const accepted = await send(userId, { to: ['seen@alpha.test'], bcc: ['hidden@beta.test'] });
      await waitForStatus(t.http, userId, accepted.id, 'sent');

      const [toAlpha] = alpha.acceptedFor(accepted.id);
      const [toBeta] = beta.acceptedFor(accepted.id);
      expect(toAlpha.to).toEqual(['seen@alpha.test']);
      expect(toBeta.to).toEqual(['hidden@beta.test']);
      for (const { raw } of [toAlpha, toBeta]) {
        const head = raw.toString('latin1').split('\r\n\r\n')[0];
        expect(head).not.toMatch(/hidden@beta\.test/i);
        expect(head).not.toMatch(/^bcc:/im);
      }
    },
    TIMEOUT,
  );
});
