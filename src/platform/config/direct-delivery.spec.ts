import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { AppConfig } from './app-config';
import { MAX_SOURCE_ADDRESSES } from './direct-delivery';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const direct = (env: Record<string, string> = {}) =>
  AppConfig.fromEnvironment({ JWT_SECRET: SECRET, SMTP_URL: 'direct', ...env }).delivery.direct;
const loading = (env: Record<string, string>) => () => direct(env);

describe('SMTP_URL=direct and its settings (docs/configuration.md#direct-delivery)', () => {
  it('fills the defaults: EHLO as the host of PUBLIC_URL, port 25, 100 messages a connection', () => {
    expect(direct({ PUBLIC_URL: 'https://Mail.Example.com/app' })).toEqual({
      heloName: 'mail.example.com',
      sourceAddresses: [],
      mxPort: 25,
      mtaStsCaFile: undefined,
      mtaStsCa: undefined,
      messagesPerConnection: 100,
    });
  });

  it('has no relays, and no direct settings for relays or the outbox', () => {
    expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET, SMTP_URL: 'DIRECT' }).delivery.relays).toEqual([]);
    expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET, SMTP_URL: 'smtp://a:25' }).delivery.direct).toBeUndefined();
    expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET }).delivery.direct).toBeUndefined();
  });

  it('refuses direct beside relays', () => {
    expect(loading({ SMTP_URL: 'smtp://a.example:25,direct' })).toThrow(/SMTP_URL/);
    expect(loading({ SMTP_URL: 'direct,smtp://a.example:25' })).toThrow(/SMTP_URL/);
  });

  it('reads the values it is given', () => {
    expect(
      direct({
        DELIVERY_HELO_NAME: 'out1.example.net',
        DELIVERY_SOURCE_ADDRESSES: '192.0.2.10, 2001:db8::10',
        DIRECT_MX_PORT: '2525',
        DELIVERY_MESSAGES_PER_CONNECTION: '20',
      }),
    ).toMatchObject({
      heloName: 'out1.example.net',
      sourceAddresses: ['192.0.2.10', '2001:db8::10'],
      mxPort: 2525,
      messagesPerConnection: 20,
    });
  });

  describe('DELIVERY_HELO_NAME', () => {
    const label = 'a'.repeat(63);
    // Labels of 63, 63, 63, 59 and 1: 253 characters, the longest name DNS carries.
    const longest = `${label}.${label}.${label}.${label.slice(0, 59)}.b`;
    const tooLong = `${label}.${label}.${label}.${label.slice(0, 60)}.b`;

    it('takes a name of 253 characters and refuses 254 or what is not a host name', () => {
      expect(longest).toHaveLength(253);
      expect(direct({ DELIVERY_HELO_NAME: longest })?.heloName).toBe(longest);
      expect(tooLong).toHaveLength(254);
      expect(loading({ DELIVERY_HELO_NAME: tooLong })).toThrow(/DELIVERY_HELO_NAME/);
      expect(loading({ DELIVERY_HELO_NAME: 'mail example.com' })).toThrow(/DELIVERY_HELO_NAME must be a host name/);
    });
  });

  describe('DELIVERY_SOURCE_ADDRESSES', () => {
    const pool = (n: number) => Array.from({ length: n }, (_, i) => `192.0.2.${i + 1}`).join(',');

    it(`takes ${MAX_SOURCE_ADDRESSES} addresses and refuses one more`, () => {
      expect(direct({ DELIVERY_SOURCE_ADDRESSES: pool(MAX_SOURCE_ADDRESSES) })?.sourceAddresses).toHaveLength(
        MAX_SOURCE_ADDRESSES,
      );
      expect(loading({ DELIVERY_SOURCE_ADDRESSES: pool(MAX_SOURCE_ADDRESSES + 1) })).toThrow(
        /DELIVERY_SOURCE_ADDRESSES: at most 64 addresses/,
      );
    });

    it.each(['mail.example.com', '192.0.2.300', '192.0.2.1/24', '192.0.2.1,,192.0.2.2'])('refuses %p', (value) => {
      expect(loading({ DELIVERY_SOURCE_ADDRESSES: value })).toThrow(
        /DELIVERY_SOURCE_ADDRESSES: .* is not an IP address/,
      );
    });
  });

  describe('DIRECT_MX_PORT and DELIVERY_MESSAGES_PER_CONNECTION', () => {
    it('take their largest values and refuse one more', () => {
      expect(direct({ DIRECT_MX_PORT: '65535', DELIVERY_MESSAGES_PER_CONNECTION: '10000' })).toMatchObject({
        mxPort: 65535,
        messagesPerConnection: 10_000,
      });
      expect(loading({ DIRECT_MX_PORT: '65536' })).toThrow(/DIRECT_MX_PORT/);
      expect(loading({ DELIVERY_MESSAGES_PER_CONNECTION: '10001' })).toThrow(/DELIVERY_MESSAGES_PER_CONNECTION/);
      expect(loading({ DELIVERY_MESSAGES_PER_CONNECTION: '0' })).toThrow(/DELIVERY_MESSAGES_PER_CONNECTION/);
    });
  });

  describe('MTA_STS_CA_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mta-sts-ca-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses a file that cannot be read, or that holds no certificate', () => {
      expect(loading({ MTA_STS_CA_FILE: join(dir, 'missing.pem') })).toThrow(/MTA_STS_CA_FILE: cannot read/);
      writeFileSync(join(dir, 'junk.pem'), 'not a certificate\n');
      expect(loading({ MTA_STS_CA_FILE: join(dir, 'junk.pem') })).toThrow(/MTA_STS_CA_FILE: .* is not a PEM/);
    });

    it("reads a PEM bundle: here Node's own root certificates", () => {
      const bundle = join(dir, 'bundle.pem');
      writeFileSync(bundle, rootCertificates.join('\n'));

      expect(direct({ MTA_STS_CA_FILE: bundle })).toMatchObject({
        mtaStsCaFile: bundle,
        mtaStsCa: Buffer.from(rootCertificates.join('\n')),
      });
    });
  });
});
