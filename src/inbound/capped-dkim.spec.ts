// The capped DKIM verifier: mailauth's own, shown the first MAX_DKIM_SIGNATURES signatures of a
// mail, with keys published on a real DNS server on loopback.
import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { Readable } from 'node:stream';
import { dkimSign, dkimVerify } from 'mailauth';
import { TestDnsServer } from '../../test/support/dns-server';
import { MAX_DKIM_SIGNATURES, verifyDkim } from './capped-dkim';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'der' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

const MAIL = 'From: ana@d0.example\r\nTo: desk@in.example\r\nSubject: signed\r\n\r\nHello.\r\n';

/** MAIL signed by d0.example … d<count-1>.example (selector s1 unless told), d0's signature first. */
async function signedBy(count: number, selector = (_: number) => 's1'): Promise<Buffer> {
  const { signatures } = await dkimSign(MAIL, {
    signingDomain: 'unused.example',
    selector: 'unused',
    privateKey,
    signatureData: Array.from({ length: count }, (_, i) => ({
      signingDomain: `d${i}.example`,
      selector: selector(i),
      privateKey,
    })),
  });
  return Buffer.from(signatures + MAIL);
}

describe('verifyDkim', () => {
  const dns = new TestDnsServer();
  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  const resolve = (name: string, type: string) => resolver.resolve(name, type) as Promise<string[]>;
  beforeAll(async () => {
    resolver.setServers([await dns.start()]);
    for (let i = 0; i < 12; i++)
      dns.publish(`s1._domainkey.d${i}.example`, `v=DKIM1; k=rsa; p=${publicKey.toString('base64')}`);
  });
  afterAll(() => dns.stop());

  it(`verifies the first ${MAX_DKIM_SIGNATURES} signatures of a mail and no more`, async () => {
    const mail = await signedBy(12);
    const { results } = await verifyDkim(Readable.from([mail]), { resolver: resolve });
    expect(results.map((r) => [r.signingDomain, r.status.result])).toEqual(
      Array.from({ length: MAX_DKIM_SIGNATURES }, (_, i) => [`d${i}.example`, 'pass']),
    );
  });

  it('reads a mail within the cap as mailauth does', async () => {
    const mail = await signedBy(MAX_DKIM_SIGNATURES);
    const capped = await verifyDkim(Readable.from([mail]), { resolver: resolve });
    const whole = await dkimVerify(mail, { resolver: resolve });
    const summary = (results: typeof whole.results) => results.map((r) => [r.signingDomain, r.status.result]);
    expect(summary(capped.results)).toEqual(summary(whole.results));
    expect(capped.headerFrom).toEqual(['ana@d0.example']);
  });

  it('leaves a good signature past the cap unverified', async () => {
    // Five signatures whose keys are not published, then d5's, whose key is.
    const mail = await signedBy(MAX_DKIM_SIGNATURES + 1, (i) => (i < MAX_DKIM_SIGNATURES ? 'unpublished' : 's1'));
    expect((await dkimVerify(mail, { resolver: resolve })).results.some((r) => r.status.result === 'pass')).toBe(true);
    const { results } = await verifyDkim(Readable.from([mail]), { resolver: resolve });
    expect(results.map((r) => r.status.result)).toEqual(Array(MAX_DKIM_SIGNATURES).fill('neutral'));
  });
});
