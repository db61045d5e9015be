// The production compose file and its Caddyfile (docs/operations.md), checked with the real tools:
// `docker compose config` (or Debian's docker-compose) for what the file requires and what it
// runs, and Caddy itself serving deploy/Caddyfile in front of a stand-in API. No Docker engine is
// needed. Without the tools the tests skip, saying so (.ci/run installs both with apt-get).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { freePort } from '../../src/platform/free-port';
import { AppConfig } from '../../src/platform/config/app-config';
import { PROJECT_ROOT, ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { noticeSkip } from '../support/skip-notice';

jest.setTimeout(120_000);

const run = promisify(execFile);
const COMPOSE_FILE = join(PROJECT_ROOT, 'deploy/docker-compose.production.yml');
const CADDYFILE = join(PROJECT_ROOT, 'deploy/Caddyfile');
const CADDY = process.env.CADDY_PATH || '/usr/bin/caddy';

/** `docker compose` when the plugin is there, else Debian's `docker-compose`; undefined without either. */
function composeCommand(): string[] | undefined {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return ['docker', 'compose'];
  } catch {
    const v1 = process.env.DOCKER_COMPOSE_PATH || '/usr/bin/docker-compose';
    return existsSync(v1) ? [v1] : undefined;
  }
}
const COMPOSE = composeCommand();
if (!COMPOSE)
  noticeSkip(
    'deployment-production: the compose file tests SKIPPED: neither `docker compose` nor docker-compose (apt-get install docker-compose)',
  );
if (!existsSync(CADDY))
  noticeSkip(`deployment-production: the Caddyfile tests SKIPPED: no caddy at ${CADDY} (apt-get install caddy)`);

/** What an operator sets: every required variable, none of them a default. */
const REQUIRED = {
  MAILROOM_DOMAIN: 'mail.example.com',
  SMTP_URL: 'smtps://mailroom:relay-password@relay.example.net:465',
  POSTGRES_PASSWORD: '0f3c9a1e5b7d2468ace0f3c9a1e5b7d2',
  JWT_SECRET: 'j'.repeat(32),
  WEBHOOK_SIGNING_KEY: 'w'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
};

/** `config` of the production file with `variables` as the operator's whole environment. */
const composeConfig = (variables: Record<string, string>) =>
  run(COMPOSE![0], [...COMPOSE!.slice(1), '-f', COMPOSE_FILE, 'config'], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH, HOME: tmpdir(), ...variables },
  });

interface Service {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: (string | { published: string | number; target: number; protocol?: string })[];
  volumes?: (string | { source: string; target: string; read_only?: boolean })[];
  networks?: Record<string, unknown> | string[];
}
interface Resolved {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
}

/** Ports as `published:target[/udp]`, whichever form the compose version prints. */
const portsOf = (service: Service) =>
  (service.ports ?? []).map((p) =>
    typeof p === 'string' ? p : `${p.published}:${p.target}${p.protocol === 'udp' ? '/udp' : ''}`,
  );
const volumesOf = (service: Service) =>
  (service.volumes ?? []).map((v) =>
    typeof v === 'string' ? v : `${v.source}:${v.target}${v.read_only ? ':ro' : ''}`,
  );
const networksOf = (service: Service) =>
  Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});

(COMPOSE ? describe : describe.skip)('deploy/docker-compose.production.yml, as docker compose config reads it', () => {
  it('requires each secret, the domain and the relay: config fails naming each one missing or empty', async () => {
    const settings = readFileSync(COMPOSE_FILE, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    const named = [...settings.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]);
    expect([...new Set(named)].sort()).toEqual(Object.keys(REQUIRED).sort());

    for (const name of Object.keys(REQUIRED)) {
      for (const value of [undefined, '']) {
        const variables: Record<string, string> = { ...REQUIRED };
        if (value === undefined) delete variables[name];
        else variables[name] = value;

        const failure = await composeConfig(variables).catch((error: { code: number; stderr: string }) => error);

        // Any status but 0 (Debian's docker-compose exits 1; the plugin's status is its own).
        const code = (failure as { code?: number }).code;
        expect({ name, value, failed: typeof code === 'number' && code !== 0 }).toEqual({ name, value, failed: true });
        expect((failure as { stderr: string }).stderr).toContain(`set ${name}`);
      }
    }
  });

  it('is described in docs/operations.md, which names every variable it requires, and which the README links', () => {
    const guide = readFileSync(join(PROJECT_ROOT, 'docs/operations.md'), 'utf8');
    for (const name of Object.keys(REQUIRED))
      expect({ name, named: guide.includes(`\`${name}\``) }).toEqual({ name, named: true });
    expect(guide).toContain('deploy/docker-compose.production.yml');
    expect(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')).toContain('](docs/operations.md)');
  });

  describe('with every required variable set', () => {
    let resolved: Resolved;
    beforeAll(async () => {
      resolved = load((await composeConfig(REQUIRED)).stdout) as Resolved;
    });
    const environmentOf = (name: string) => resolved.services[name].environment!;
    const byDefault = () => Object.entries(resolved.services).filter(([, s]) => !s.profiles?.length);

    it('publishes only Caddy, on 80 and 443, and runs no Mailpit', () => {
      expect(
        byDefault()
          .map(([name]) => name)
          .sort(),
      ).toEqual(['api', 'caddy', 'postgres', 'worker']);
      expect(byDefault().flatMap(([name, service]) => portsOf(service).map((p) => `${name} ${p}`))).toEqual([
        'caddy 80:80',
        'caddy 443:443',
        'caddy 443:443/udp',
      ]);
      expect(Object.values(resolved.services).filter((s) => /mailpit/i.test(s.image ?? ''))).toEqual([]);
      for (const name of ['api', 'worker']) expect(environmentOf(name).SMTP_URL).toBe(REQUIRED.SMTP_URL);
    });

    it("gives PostgreSQL the operator's password and the processes a DATABASE_URL with it", () => {
      expect(environmentOf('postgres').POSTGRES_PASSWORD).toBe(REQUIRED.POSTGRES_PASSWORD);
      for (const name of ['api', 'worker'])
        expect(new URL(environmentOf(name).DATABASE_URL).password).toBe(REQUIRED.POSTGRES_PASSWORD);
    });

    it("trusts the proxy network's addresses for X-Forwarded-For, a network only Caddy and the API processes join", () => {
      const subnet = resolved.networks.proxy.ipam!.config![0].subnet;
      expect(environmentOf('api').TRUST_PROXY).toBe(subnet);
      const onProxy = Object.entries(resolved.services).filter(([, s]) => networksOf(s).includes('proxy'));
      expect(onProxy.map(([name]) => name).sort()).toEqual(['api', 'caddy']);
      expect(onProxy.filter(([, s]) => s.environment?.ROLE === 'worker')).toEqual([]);
    });

    it("has environments the app's configuration reader accepts, with PUBLIC_URL on https", () => {
      for (const name of Object.keys(resolved.services).filter((n) => resolved.services[n].environment?.ROLE)) {
        const environment = environmentOf(name);
        // The submission profile's TLS files come from the mount, which only its container has.
        if (environment.SUBMISSION_TLS_CERT) {
          expect(() => AppConfig.fromEnvironment(environment)).toThrow(
            `SUBMISSION_TLS_CERT: cannot read ${environment.SUBMISSION_TLS_CERT}`,
          );
          continue;
        }
        const config = AppConfig.fromEnvironment(environment);
        expect({ name, publicUrl: config.deliverability.publicUrl }).toEqual({
          name,
          publicUrl: 'https://mail.example.com',
        });
      }
    });

    it('gives Caddy deploy/Caddyfile, read-only, and pins every image to a version', () => {
      expect(volumesOf(resolved.services.caddy)).toContain(`${CADDYFILE}:/etc/caddy/Caddyfile:ro`);
      expect(environmentOf('caddy').MAILROOM_DOMAIN).toBe(REQUIRED.MAILROOM_DOMAIN);
      const images = Object.values(resolved.services).flatMap((s) => (s.image ? [s.image] : []));
      expect(images.length).toBeGreaterThanOrEqual(2);
      for (const image of images) expect(image).toMatch(/:v?\d+(\.\d+)*$/);
    });
  });
});

(existsSync(CADDY) ? describe : describe.skip)('deploy/Caddyfile, served by Caddy', () => {
  /** What reached the stand-in API through Caddy. */
  const reached: { url: string; headers: IncomingHttpHeaders }[] = [];
  let upstream: Server;
  let caddy: ServiceProcess;
  let base: string;
  let upstreamBase: string;
  /** Caddy's own state (certificates, autosaved config), kept out of the user's home. */
  const caddyHome = mkdtempSync(join(tmpdir(), 'mailroom-caddy-'));
  const caddyEnv = { HOME: caddyHome, XDG_DATA_HOME: caddyHome, XDG_CONFIG_HOME: caddyHome };

  beforeAll(async () => {
    // Stands in for the API: it answers every path, /metrics included, as the API does.
    upstream = createServer((request, response) => {
      reached.push({ url: request.url!, headers: request.headers });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end(`upstream ${request.url}`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // A plain-HTTP site on loopback (no certificate to fetch here), the rest of the file as shipped.
    caddy = startServiceProcess(
      {
        ...caddyEnv,
        MAILROOM_DOMAIN: base,
        MAILROOM_UPSTREAM: '127.0.0.1',
        MAILROOM_API_PORT: String((upstream.address() as AddressInfo).port),
        MAILROOM_CADDY_ADMIN: 'off',
      },
      { command: [CADDY, 'run', '--adapter', 'caddyfile', '--config', CADDYFILE], dataDir: caddyHome },
    );
    await waitUntilAnswering(`${base}/health`, caddy);
  });

  afterAll(async () => {
    await caddy?.stop();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('validates with a real domain (automatic HTTPS) as the compose file gives it', async () => {
    const { stdout } = await run(CADDY, ['validate', '--adapter', 'caddyfile', '--config', CADDYFILE], {
      env: { PATH: process.env.PATH, ...caddyEnv, MAILROOM_DOMAIN: REQUIRED.MAILROOM_DOMAIN },
    });
    expect(stdout).toContain('Valid configuration');
  });

  it('answers /metrics itself with a 404 problem, in every spelling the API would route, and never passes it on', async () => {
    // The control: the stand-in answers /metrics when asked directly.
    expect((await fetch(`${upstreamBase}/metrics`)).status).toBe(200);
    reached.length = 0;

    for (const path of [
      '/metrics',
      '/METRICS',
      '/Metrics',
      '/metrics/',
      '/metrics?name=x',
      '/metrics/x',
      '/%6Detrics',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'application/problem+json',
      });
      expect(await response.json()).toMatchObject({ status: 404, title: 'Not Found' });
    }
    expect(reached).toEqual([]);
  });

  it("passes everything else on, with the client's address in X-Forwarded-For in place of what the client claimed", async () => {
    reached.length = 0;

    const response = await fetch(`${base}/user/messages?take=1`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });

    expect(response.status).toBe(200);
    expect(await response.text()).toBe('upstream /user/messages?take=1');
    expect(reached.map((r) => [r.url, r.headers['x-forwarded-for'], r.headers['x-forwarded-proto']])).toEqual([
      ['/user/messages?take=1', '127.0.0.1', 'http'],
    ]);
  });
});
