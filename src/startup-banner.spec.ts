import { AppConfig } from './platform/config/app-config';
import { bannerAsLogLine, formatBanner, startupBanner } from './startup-banner';

function config(env: Record<string, string>): AppConfig {
  return AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    DATA_DIR: '/srv/mailroom',
    ...env,
  });
}

describe(startupBanner.name, () => {
  it('names the relay but never its credentials', () => {
    const sut = startupBanner(config({ SMTP_URL: 'smtps://mailer:s3cret-pass@smtp.example.com:465' }));

    expect(sut.rows).toContainEqual(['Mail', 'sent through smtps://smtp.example.com:465']);
    expect(formatBanner(sut) + bannerAsLogLine(sut)).not.toMatch(/s3cret|mailer/);
  });

  it('names several relays in the order they are tried, never their credentials', () => {
    const sut = startupBanner(config({ SMTP_URL: 'smtp://u:s3cret@a.example.com:2525,smtps://b.example.com' }));

    expect(sut.rows).toContainEqual([
      'Mail',
      'sent through smtp://a.example.com:2525, then smtps://b.example.com:465 (failover)',
    ]);
    expect(formatBanner(sut) + bannerAsLogLine(sut)).not.toMatch(/s3cret|u:/);
  });

  it('names the outbox folder when there is no relay', () => {
    const sut = startupBanner(config({}));

    expect(sut.rows).toContainEqual(['Mail', 'written as .eml files to /srv/mailroom/outbox (set SMTP_URL to send)']);
  });

  it.each([
    ['0.0.0.0', 'http://localhost:8080'],
    ['::', 'http://localhost:8080'],
    ['10.1.2.3', 'http://10.1.2.3:8080'],
    ['fd00::1', 'http://[fd00::1]:8080'],
  ])('shows HOST=%s as %s', (host, base) => {
    const sut = startupBanner(config({ HOST: host, PORT: '8080' }));

    expect(sut.rows.slice(0, 4)).toEqual([
      ['API', base],
      ['Console', `${base}/console`],
      ['Swagger UI', `${base}/docs`],
      ['Metrics', `${base}/metrics`],
    ]);
  });

  it('shows a worker where it answers probes and scrapers, and no API', () => {
    const sut = startupBanner(config({ ROLE: 'worker', PORT: '9100' }));

    expect(sut.title).toBe('Mailroom is ready (ROLE=worker)');
    expect(sut.rows.map(([label, value]) => `${label} ${value}`).slice(0, 2)).toEqual([
      'Health http://localhost:9100/health',
      'Metrics http://localhost:9100/metrics',
    ]);
    expect(sut.rows.map(([label]) => label)).toEqual(['Health', 'Metrics', 'Mail']);
  });

  it('shows the demo token only when given one, aligned with the other rows', () => {
    const sut = startupBanner(config({ ROLE: 'api' }), { user: 'demo-user', token: 'eyJ.x.y', ttl: '24 h' });

    expect(formatBanner(sut)).toBe(
      '\nMailroom is ready (ROLE=api)\n' +
        '  API         http://localhost:3000\n' +
        '  Console     http://localhost:3000/console\n' +
        '  Swagger UI  http://localhost:3000/docs\n' +
        '  Metrics     http://localhost:3000/metrics\n' +
        '  Mail        written as .eml files to /srv/mailroom/outbox (set SMTP_URL to send)\n' +
        '  Token       eyJ.x.y  (user "demo-user", valid 24 h)\n\n',
    );
    expect(startupBanner(config({})).rows.map(([label]) => label)).not.toContain('Token');
  });

  it('shows the first owner’s invitation link only when given one, last', () => {
    const firstOwner = {
      account: 'ada',
      email: 'ada@example.com',
      link: 'http://localhost:3000/console/invitation/abc',
    };

    const sut = startupBanner(config({}), undefined, firstOwner);

    expect(sut.rows.at(-1)).toEqual([
      'First owner',
      'http://localhost:3000/console/invitation/abc  (account "ada": choose the password of ada@example.com; a new link each start until someone joins)',
    ]);
    expect(startupBanner(config({})).rows.map(([label]) => label)).not.toContain('First owner');
  });

  it.each([
    ['api', { SUBMISSION_ALLOW_INSECURE_AUTH: 'true' }, 'localhost:2587, no TLS (SUBMISSION_ALLOW_INSECURE_AUTH)'],
    [
      'all',
      { SUBMISSION_TLS_CERT: __filename, SUBMISSION_TLS_KEY: __filename },
      'localhost:2587, STARTTLS, AUTH after it',
    ],
  ])('shows a ROLE=%s process with SMTP submission on where and how an app logs in', (role, env, listener) => {
    const sut = startupBanner(config({ ROLE: role, SUBMISSION_SMTP_PORT: '2587', ...env }));

    expect(sut.rows).toContainEqual([
      'SMTP submission',
      `${listener}; user: anything, password: an API key with scope "send" (POST /user/api-keys)`,
    ]);
  });

  it('shows no SMTP submission where it is off, or on a worker (which never runs it)', () => {
    const rowsOf = (env: Record<string, string>) => startupBanner(config(env)).rows.map(([label]) => label);

    expect(rowsOf({})).not.toContain('SMTP submission');
    expect(rowsOf({ ROLE: 'worker', SUBMISSION_SMTP_PORT: '2587', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' })).toEqual([
      'Health',
      'Metrics',
      'Mail',
    ]);
  });

  it('names the inbound SMTP port where a worker (or ROLE=all) listens, and nothing on an API process', () => {
    const rowOf = (env: Record<string, string>) =>
      startupBanner(config(env)).rows.find(([label]) => label === 'Inbound SMTP');

    expect(rowOf({ ROLE: 'worker', INBOUND_SMTP_PORT: '2525', BOUNCE_DOMAIN: 'Bounces.Example.com' })).toEqual([
      'Inbound SMTP',
      'localhost:2525, the MX of bounces.example.com and receiving domains',
    ]);
    expect(rowOf({ ROLE: 'all', INBOUND_SMTP_PORT: '25', HOST: '10.1.2.3' })?.[1]).toBe(
      '10.1.2.3:25, the MX of receiving domains',
    );
    expect(rowOf({ ROLE: 'all', INBOUND_SMTP_PORT: '0' })?.[1]).toMatch(/^localhost:a free port chosen at start/);
    expect(rowOf({ ROLE: 'api', INBOUND_SMTP_PORT: '2525' })).toBeUndefined();
    expect(rowOf({ ROLE: 'worker' })).toBeUndefined();
  });
});
