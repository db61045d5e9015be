// docs/delivery-and-deliverability.md#direct-delivery through the whole app: a message sent with
// POST /sender/send under SMTP_URL=direct, delivered by the worker to MX hosts on loopback named
// by a real DNS server, each recipient domain with its own fate, recorded as docs/api.md says.
import { sendBody } from '../../support/factories';
import type { DeliveredMessage } from '../../support/delivery/delivered-message';
import { TestMxHosts } from '../../support/mx-hosts';
import type { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
type Message = DeliveredMessage;

describe('direct delivery through the app (SMTP_URL=direct)', () => {
  const mx = new TestMxHosts();
  const sinks = {} as Record<'alpha' | 'beta' | 'grey', SmtpSink>;
  let t: TestApp;

  beforeAll(async () => {
    await mx.start();
    sinks.alpha = await mx.host('mx.alpha.test');
    sinks.beta = await mx.host('mx.beta.test');
    sinks.grey = await mx.host('mx.grey.test');
    mx.dns.publishMx('alpha.test', { preference: 10, exchange: 'mx.alpha.test' });
    mx.dns.publishMx('beta.test', { preference: 10, exchange: 'mx.beta.test' });
    mx.dns.publishMx('grey.test', { preference: 10, exchange: 'mx.grey.test' });
    mx.dns.publishMx('null.test', { preference: 0, exchange: '.' });
    t = await bootTestApp(
      {
        ROLE: 'all',
        ...mx.directDeliveryEnv(),
        DELIVERY_RETRY_DELAYS: '1',
      },
      { isolatedDatabase: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await mx.stop();
  });

  const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
  const suppressions = async (userId: string): Promise<{ email: string; reason: string }[]> =>
    (await t.http.get('/user/suppressions').set(bearer(userId)).expect(200)).body.suppressions;
  const deliveredTo = (sink: SmtpSink, id: string) => sink.acceptedFor(id).flatMap((m) => m.to);

  it(
    'gives each domain its fate: accepted, one address refused 550 5.1.1, one greylisted then accepted, a null MX and a domain that does not exist failed and suppressed',
    async () => {
      const userId = newUserId('direct');
      sinks.beta.refuseWith.set('gone@beta.test', { code: 550, message: '5.1.1 User unknown' });
      sinks.grey.greylist.set('g@grey.test', 1);

      const accepted = await send(userId, {
        to: ['a@alpha.test', 'b@beta.test'],
        cc: ['gone@beta.test', 'x@null.test'],
        bcc: ['g@grey.test', 'y@nowhere.test'],
      });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');

      expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
        ['a@alpha.test', 'sent'],
        ['b@beta.test', 'sent'],
        ['gone@beta.test', 'failed'],
        ['x@null.test', 'failed'],
        ['g@grey.test', 'sent'],
        ['y@nowhere.test', 'failed'],
      ]);
      // Each recipient shows the MX host that answered for its domain, and that no TLS protected it.
      expect(sent.recipients.map((r) => [r.email, r.route])).toEqual([
        ['a@alpha.test', { host: 'mx.alpha.test', tls: false }],
        ['b@beta.test', { host: 'mx.beta.test', tls: false }],
        ['gone@beta.test', { host: 'mx.beta.test', tls: false }],
        ['x@null.test', null],
        ['g@grey.test', { host: 'mx.grey.test', tls: false }],
        ['y@nowhere.test', null],
      ]);
      const detail = (email: string) => sent.recipients.find((r) => r.email === email)?.detail;
      expect(detail('gone@beta.test')).toMatch(/^550 5\.1\.1 /);
      expect(detail('x@null.test')).toMatch(/^550 5\.1\.10 /);
      expect(detail('y@nowhere.test')).toMatch(/^550 5\.1\.2 /);
      // The greylisted domain was deferred, then retried alone: every accepted recipient got it once.
      expect(sent.statusHistory.map((e) => e.status)).toContain('deferred');
      expect(deliveredTo(sinks.alpha, accepted.id)).toEqual(['a@alpha.test']);
      expect(deliveredTo(sinks.beta, accepted.id)).toEqual(['b@beta.test']);
      expect(deliveredTo(sinks.grey, accepted.id)).toEqual(['g@grey.test']);
      expect((await suppressions(userId)).map((s) => [s.email, s.reason]).sort()).toEqual([
        ['gone@beta.test', 'hard_bounce'],
        ['x@null.test', 'hard_bounce'],
        ['y@nowhere.test', 'hard_bounce'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'fails at once, and suppresses, a message whose only domains take no mail',
    async () => {
      const userId = newUserId('direct');

      const accepted = await send(userId, { to: ['p@null.test', 'q@nowhere.test'] });
      const failed: Message = await waitForStatus(t.http, userId, accepted.id, 'failed');

      // Failed at the first attempt, without a retry: the domains' own answers.
      expect(failed.statusHistory.filter((e) => !e.recipient).map((e) => e.status)).toEqual([
        'queued',
        'sending',
        'failed',
      ]);
      expect(failed.statusHistory.filter((e) => e.recipient).map((e) => [e.recipient, e.detail])).toEqual([
        ['p@null.test', expect.stringMatching(/^550 5\.1\.10 /)],
        ['q@nowhere.test', expect.stringMatching(/^550 5\.1\.2 /)],
      ]);
      expect((await suppressions(userId)).map((s) => s.email).sort()).toEqual(['p@null.test', 'q@nowhere.test']);
    },
    TIMEOUT,
  );
});
