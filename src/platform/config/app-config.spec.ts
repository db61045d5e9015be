import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppConfig, ConfigurationError } from './app-config';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';

describe(AppConfig.name, () => {
  describe('fromEnvironment', () => {
    it('fills the defaults of docs/configuration.md', () => {
      const sut = AppConfig.fromEnvironment({ JWT_SECRET: SECRET });

      expect(sut.port).toBe(3000);
      expect(sut.host).toBe('0.0.0.0');
      expect(sut.role).toBe('all');
      expect(sut.production).toBe(false);
      expect(sut.dataDir).toBe(resolve('./data'));
      expect(sut.databaseUrl).toBeUndefined();
      expect(sut.databasePoolSize).toBe(20);
      expect(sut.databasePoolMode).toBe('session');
      expect(sut.databaseReadUrl).toBeUndefined();
      expect(sut.databaseReadMaxLagMs).toBe(1000);
      expect(sut.limits).toEqual({
        maxRecipients: 50,
        maxAttachmentBytes: 10485760,
        requestsPerMinute: 600,
        bodyReadMs: 60_000,
      });
      expect(sut.auth).toEqual({
        verification: { kind: 'secret', secret: SECRET, algorithms: ['HS256'] },
        issuer: undefined,
        audience: undefined,
      });
    });

    it('reads the values it is given', () => {
      const sut = AppConfig.fromEnvironment({
        JWT_SECRET: SECRET,
        PORT: '8080',
        HOST: '127.0.0.1',
        ROLE: 'worker',
        DATABASE_URL: 'postgresql://mailroom@db:5432/mailroom',
        JWT_ISSUER: 'https://issuer.example.com/',
        JWT_AUDIENCE: 'mailroom',
        MAX_RECIPIENTS: '5',
        MAX_ATTACHMENT_BYTES: '1024',
        RATE_LIMIT_PER_MINUTE: '30',
        BODY_READ_TIMEOUT_MS: '1500',
        DATABASE_POOL_SIZE: '1000',
        DATABASE_POOL_MODE: 'transaction',
        DATABASE_READ_URL: 'postgresql://mailroom@replica:5432/mailroom',
        DATABASE_READ_MAX_LAG_MS: '3600000',
      });

      expect(sut.databasePoolSize).toBe(1000);
      expect(sut.databasePoolMode).toBe('transaction');
      expect(sut.databaseReadUrl).toBe('postgresql://mailroom@replica:5432/mailroom');
      expect(sut.databaseReadMaxLagMs).toBe(3_600_000);

      expect(sut.port).toBe(8080);
      expect(sut.host).toBe('127.0.0.1');
      expect(sut.role).toBe('worker');
      expect(sut.databaseUrl).toBe('postgresql://mailroom@db:5432/mailroom');
      expect(sut.auth.issuer).toBe('https://issuer.example.com/');
      expect(sut.auth.audience).toBe('mailroom');
      expect(sut.limits).toEqual({
        maxRecipients: 5,
        maxAttachmentBytes: 1024,
        requestsPerMinute: 30,
        bodyReadMs: 1500,
      });
    });

    it('reads the deliverability settings of docs/delivery-and-deliverability.md, with their defaults', () => {
      const defaults = AppConfig.fromEnvironment({ JWT_SECRET: SECRET, PORT: '8080' }).deliverability;
      const given = AppConfig.fromEnvironment({
        JWT_SECRET: SECRET,
        PUBLIC_URL: 'https://mail.example.com/',
        BOUNCE_DOMAIN: 'Bounces.Example.com',
        INBOUND_SMTP_PORT: '2525',
        DNS_SERVERS: '127.0.0.1:5353,1.1.1.1',
        DATA_ENCRYPTION_KEY: 'k'.repeat(32),
      }).deliverability;

      expect(defaults).toMatchObject({
        publicUrl: 'http://localhost:8080',
        bounceDomain: undefined,
        inboundSmtpPort: undefined,
        dnsServers: [],
      });
      expect(given).toMatchObject({
        publicUrl: 'https://mail.example.com',
        bounceDomain: 'bounces.example.com',
        inboundSmtpPort: 2525,
        dnsServers: ['127.0.0.1:5353', '1.1.1.1'],
        encryptionKey: 'k'.repeat(32),
      });
    });

    it('treats a blank variable as unset', () => {
      const sut = AppConfig.fromEnvironment({ JWT_SECRET: SECRET, PORT: '', ROLE: '', JWT_JWKS_URL: '' });

      expect(sut.port).toBe(3000);
      expect(sut.role).toBe('all');
      expect(sut.auth.verification.kind).toBe('secret');
    });

    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '1e3'],
      ['PORT', '0x50'],
      ['PORT', ' 80 '],
      ['PORT', '0'],
      ['MAX_RECIPIENTS', '1.0'],
      ['ROLE', 'boss'],
      ['DATABASE_URL', 'mysql://x'],
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', '1001'],
      ['DATABASE_POOL_SIZE', '2.5'],
      ['DATABASE_POOL_MODE', 'statement'],
      ['DATABASE_READ_URL', 'replica:5432'],
      ['DATABASE_READ_MAX_LAG_MS', '3600001'],
      ['DATABASE_READ_MAX_LAG_MS', '-1'],
      ['DATABASE_READ_MAX_LAG_MS', '1s'],
      ['JWT_SECRET', 'too-short'],
      ['MAX_RECIPIENTS', '0'],
      ['MAX_ATTACHMENT_BYTES', 'lots'],
      ['RATE_LIMIT_PER_MINUTE', '0'],
      ['JWT_JWKS_URL', 'not a url'],
      ['PUBLIC_URL', 'mailroom.example.com'],
      ['BOUNCE_DOMAIN', 'bounces@example.com'],
      ['BOUNCE_DOMAIN', '-bad-.example.com'],
      ['INBOUND_SMTP_PORT', '65536'],
      ['DNS_SERVERS', '1.1.1.1, 8.8.8.8'],
      ['DNS_SERVERS', '1.1.1.1,'],
      ['DATA_ENCRYPTION_KEY', 'x'.repeat(31)],
      ['INBOUND_SMTP_PORT', '-1'],
      ['MESSAGE_RETENTION_DAYS', '0'],
      ['MESSAGE_RETENTION_DAYS', '36501'],
      ['MESSAGE_RETENTION_DAYS', '1.5'],
      ['MESSAGE_RETENTION_DAYS', '30d'],
      ['INBOUND_DAILY_QUOTA_BYTES', String(1024 * 1024 - 1)],
      ['INBOUND_DAILY_QUOTA_BYTES', '1GB'],
      ['BODY_READ_TIMEOUT_MS', '99'],
      ['BODY_READ_TIMEOUT_MS', '3600001'],
      ['TRUST_PROXY', 'proxy.example.com'],
      ['TRUST_PROXY', '10.0.0.0/33'],
      ['TRUST_PROXY', 'fd00::/129'],
      ['TRUST_PROXY', '10.0.0.1,'],
      ['TRUST_PROXY', '127.1'],
      ['TRUST_PROXY', '0x7f.0.0.1'],
      ['TRUST_PROXY', '10.0.0.1:8080'],
      ['TRUST_PROXY', Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`).join(',')],
      ['DELIVERY_SITE_CONNECTIONS', '0'],
      ['DELIVERY_SITE_CONNECTIONS', '100'],
      ['DELIVERY_SITE_CONNECTIONS', 'google.com=3'],
      ['DELIVERY_SITE_CONNECTIONS', '5,google.com'],
      ['DELIVERY_SITE_CONNECTIONS', '5,google.com=0'],
      ['DELIVERY_SITE_CONNECTIONS', '5, google.com=3'],
      ['DELIVERY_SITE_CONNECTIONS', '5,.google.com=3'],
      ['DELIVERY_SITE_CONNECTIONS', '5,google.com=3,'],
      ['DELIVERY_SITE_CONNECTIONS', `5,${('a'.repeat(49) + '.').repeat(20).slice(0, 997)}=3`],
    ])('refuses %s=%s with a message naming the variable', (name, value) => {
      const env = { JWT_SECRET: SECRET, [name]: value };
      if (name === 'JWT_JWKS_URL') delete (env as Record<string, string | undefined>).JWT_SECRET;

      const load = () => AppConfig.fromEnvironment(env);

      expect(load).toThrow(ConfigurationError);
      expect(load).toThrow(new RegExp(`\\b${name}\\b`));
    });

    it.each([
      ['0', 0],
      ['65535', 65535],
      ['', undefined],
    ])('takes INBOUND_SMTP_PORT=%s (0: a free port, for tests)', (value, port) => {
      expect(
        AppConfig.fromEnvironment({ JWT_SECRET: SECRET, INBOUND_SMTP_PORT: value }).deliverability.inboundSmtpPort,
      ).toBe(port);
    });

    it.each([
      ['1', 1],
      ['36500', 36500],
      ['', undefined],
    ])('takes MESSAGE_RETENTION_DAYS=%s (unset: messages are kept forever)', (value, days) => {
      expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET, MESSAGE_RETENTION_DAYS: value }).retentionDays).toBe(days);
    });

    it.each([
      [String(1024 * 1024), 1024 * 1024],
      ['', 1024 * 1024 * 1024],
    ])('takes INBOUND_DAILY_QUOTA_BYTES=%s (unset: 1 GiB a day)', (value, bytes) => {
      expect(
        AppConfig.fromEnvironment({ JWT_SECRET: SECRET, INBOUND_DAILY_QUOTA_BYTES: value }).inbound.dailyQuotaBytes,
      ).toBe(bytes);
    });

    it('reads DELIVERY_SITE_CONNECTIONS: every site’s limit, then host suffixes with their own; unset: 5, and 3 for the big three', () => {
      expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET }).delivery.siteConnections).toEqual({
        perSite: 5,
        byHostSuffix: { 'google.com': 3, 'outlook.com': 3, 'yahoodns.net': 3 },
      });
      const given = (value: string) =>
        AppConfig.fromEnvironment({ JWT_SECRET: SECRET, DELIVERY_SITE_CONNECTIONS: value }).delivery.siteConnections;
      expect(given('8,Google.com=2,mx.example-host.net=99')).toEqual({
        perSite: 8,
        byHostSuffix: { 'google.com': 2, 'mx.example-host.net': 99 },
      });
      expect(given('1')).toEqual({ perSite: 1, byHostSuffix: {} });
      // The longest it takes: 1,000 characters (one more is refused above).
      const suffix = ('a'.repeat(49) + '.').repeat(20).slice(0, 996);
      expect(`5,${suffix}=3`).toHaveLength(1_000);
      expect(given(`5,${suffix}=3`).byHostSuffix).toEqual({ [suffix]: 3 });
    });

    it('reads TRUST_PROXY: addresses and CIDR ranges, IPv4 and IPv6, up to 100 of them; unset trusts no one', () => {
      const proxies = (value: string) =>
        AppConfig.fromEnvironment({ JWT_SECRET: SECRET, TRUST_PROXY: value }).trustedProxies;

      const given = proxies(' 10.0.0.1, 172.16.0.0/12 ,fd00::/8,::1');
      expect(['10.0.0.1', '172.31.255.255', 'fd12::1', '::1', '::ffff:172.16.0.9'].map((a) => given.trusts(a))).toEqual(
        [true, true, true, true, true],
      );
      expect(['10.0.0.2', '172.32.0.0', 'fe80::1', '127.0.0.1'].map((a) => given.trusts(a))).toEqual([
        false,
        false,
        false,
        false,
      ]);
      const hundred = proxies(Array.from({ length: 100 }, (_, i) => `10.0.0.${i}`).join(','));
      expect(hundred.trusts('10.0.0.99')).toBe(true);
      expect(AppConfig.fromEnvironment({ JWT_SECRET: SECRET }).trustedProxies.isEmpty).toBe(true);
    });

    it('reports every invalid variable at once', () => {
      const load = () => AppConfig.fromEnvironment({ JWT_SECRET: SECRET, PORT: 'abc', ROLE: 'boss' });

      expect(load).toThrow(/PORT[\s\S]*ROLE/);
    });

    it('refuses to start in production without a key', () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-config-'));
      try {
        const load = () => AppConfig.fromEnvironment({ NODE_ENV: 'production', DATA_DIR: dataDir });

        expect(load).toThrow(ConfigurationError);
        expect(load).toThrow(/JWT_SECRET/);
        expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('accepts production with a JWKS URL and no secret', () => {
      const sut = AppConfig.fromEnvironment({
        NODE_ENV: 'production',
        JWT_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
      });

      expect(sut.production).toBe(true);
      expect(sut.auth.verification).toEqual({
        kind: 'jwks',
        jwksUrl: 'https://idp.example.com/.well-known/jwks.json',
        algorithms: ['RS256', 'ES256'],
      });
    });

    it('refuses both JWT_SECRET and JWT_JWKS_URL', () => {
      const load = () =>
        AppConfig.fromEnvironment({ JWT_SECRET: SECRET, JWT_JWKS_URL: 'https://idp.example.com/jwks.json' });

      expect(load).toThrow(ConfigurationError);
      expect(load).toThrow(/JWT_SECRET.*JWT_JWKS_URL/);
    });

    describe('without JWT_SECRET outside production', () => {
      let dataDir: string;

      beforeEach(() => {
        dataDir = join(mkdtempSync(join(tmpdir(), 'mailroom-config-')), 'not-yet-created');
      });

      afterEach(() => {
        rmSync(resolve(dataDir, '..'), { recursive: true, force: true });
      });

      it('creates a random secret in DATA_DIR, readable by its owner only', () => {
        const sut = AppConfig.fromEnvironment({ NODE_ENV: 'development', DATA_DIR: dataDir });

        const path = join(dataDir, 'jwt-secret');
        expect(statSync(path).mode & 0o777).toBe(0o600);
        expect(sut.auth.verification).toEqual({
          kind: 'secret',
          secret: readFileSync(path, 'utf8').trim(),
          algorithms: ['HS256'],
        });
        expect((sut.auth.verification as { secret: string }).secret.length).toBeGreaterThanOrEqual(32);
      });

      it('reuses the same secret on the next start', () => {
        const first = AppConfig.fromEnvironment({ NODE_ENV: 'development', DATA_DIR: dataDir });
        const second = AppConfig.fromEnvironment({ NODE_ENV: 'development', DATA_DIR: dataDir });

        expect(second.auth.verification).toEqual(first.auth.verification);
      });

      it('gives different data directories different secrets', () => {
        const other = mkdtempSync(join(tmpdir(), 'mailroom-config-'));
        try {
          const first = AppConfig.fromEnvironment({ DATA_DIR: dataDir });
          const second = AppConfig.fromEnvironment({ DATA_DIR: other });

          expect(second.auth.verification).not.toEqual(first.auth.verification);
        } finally {
          rmSync(other, { recursive: true, force: true });
        }
      });
    });
  });
});
