// SPF, DKIM and DMARC verdicts on received mail (docs/inbound.md), from mailauth with DNS_SERVERS: a real
// DNS server on loopback (dns2) publishes each sender domain's records, nodemailer signs and
// sends, and each stored verdict must be what mailauth itself, run here on the stored raw mail
// with the same resolver and connection, reads. Nothing is refused for a failing verdict.
import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { authenticate } from 'mailauth';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { newUserId } from '../../support/tokens';
import { bootInboundApp, newDomain, TIMEOUT } from '../../support/inbound/inbound-app';

const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

describe('inbound authentication verdicts', () => {
  const app = bootInboundApp();
  const { dns } = app;
  const published = keyPair();
  const other = keyPair();

  /** Publishes a sender domain: SPF, the DKIM key of `published` under selector s1, DMARC; each only when given. */
  const senderDomain = (records: { spf?: string; dkim?: boolean; dmarc?: string }) => {
    const name = newDomain('sender');
    if (records.spf) dns.publish(name, records.spf);
    if (records.dkim)
      dns.publish(`s1._domainkey.${name}`, `v=DKIM1; k=rsa; p=${published.publicKey.toString('base64')}`);
    if (records.dmarc) dns.publish(`_dmarc.${name}`, records.dmarc);
    return name;
  };

  /** Sends from `from@domain` (envelope and header) to `to`, DKIM-signed with `key` when given; resolves once the listener answered. */
  const send = async (domain: string, to: string, key?: string) => {
    const transport = createTransport({
      host: '127.0.0.1',
      port: app.port(),
      ignoreTLS: true,
      name: 'mail.sender.example',
      ...(key && { dkim: { domainName: domain, keySelector: 's1', privateKey: key } }),
    });
    try {
      const raw = await new MailComposer({
        from: `ana@${domain}`,
        to,
        subject: 'judge me',
        text: 'a mail to judge',
      })
        .compile()
        .build();
      return await transport.sendMail({ envelope: { from: `ana@${domain}`, to: [to] }, raw });
    } finally {
      transport.close();
    }
  };

  /** mailauth on the stored raw mail, as the listener should have run it. */
  const reference = async (raw: Buffer, mailFrom: string) => {
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const result = await authenticate(raw, {
      ip: '127.0.0.1',
      helo: 'mail.sender.example',
      sender: mailFrom,
      mta: 'localhost',
      resolver: (name, type) => resolver.resolve(name, type) as Promise<string[]>,
      disableArc: true,
      disableBimi: true,
    });
    const dkim = result.dkim.results.find((r) => r.status.result === 'pass') ?? result.dkim.results[0];
    return {
      spf: result.spf ? result.spf.status.result : 'none',
      dkim: dkim ? dkim.status.result : 'none',
      dmarc: result.dmarc ? result.dmarc.status.result : 'none',
    };
  };

  it.each([
    [
      'a signed mail from an allowed address',
      { spf: 'v=spf1 ip4:127.0.0.1 -all', dkim: true, dmarc: 'v=DMARC1; p=reject' },
      'published',
      { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
    ],
    [
      'a mail from a refused address signed with another key',
      { spf: 'v=spf1 ip4:192.0.2.1 -all', dkim: true, dmarc: 'v=DMARC1; p=reject' },
      'other',
      { spf: 'fail', dkim: 'fail', dmarc: 'fail' },
    ],
    [
      'an unsigned mail from an address SPF only doubts',
      { spf: 'v=spf1 ip4:192.0.2.1 ~all', dmarc: 'v=DMARC1; p=none' },
      undefined,
      { spf: 'softfail', dkim: 'none', dmarc: 'fail' },
    ],
    ['an unsigned mail from a domain without records', {}, undefined, { spf: 'none', dkim: 'none', dmarc: 'none' }],
  ] as const)(
    'reads %s as mailauth does, and stores it',
    async (_, records, signer, expected) => {
      const userId = newUserId('verdicts');
      const domain = await app.receivingDomain(userId);
      const sender = senderDomain(records);
      const key = signer === 'published' ? published.privateKey : signer === 'other' ? other.privateKey : undefined;
      await send(sender, `desk@${domain.name}`, key);

      const [item] = (await app.list(userId)).inbound;
      expect(item.authentication).toEqual(expected);
      const { body: raw } = await app.bytes(userId, `/user/inbound/${item.id}/raw`);
      expect(await reference(raw, `ana@${sender}`)).toEqual(expected);
    },
    TIMEOUT,
  );
});
