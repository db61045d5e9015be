// What the README and docker-compose.yml promise an operator, checked against the real thing:
// the healthcheck command run against a live app, and the image's token command compiled by
// the image's own build (`nest build`) and run without devDependencies such as ts-node.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { freePort } from '../src/common/free-port';
import { PROJECT_ROOT } from './support/child-processes';
import { bootTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { newUserId } from './support/tokens';

jest.setTimeout(180_000);

const run = promisify(execFile);

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

// YAML 1.1: the file shares settings between services with merge keys (`<<: *mailroom`).
const compose = load(readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { schema: YAML11_SCHEMA }) as {
  services: Record<string, ComposeService>;
};
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
/** The README's paragraphs about compose, and the command it gives for a token in the image. */
const readmeOnCompose = readme.split(/\n\s*\n/).filter((paragraph) => paragraph.includes('docker compose')).join('\n');
const imageTokenCommand = /docker compose exec api node (\S+) --sub/.exec(readmeOnCompose)?.[1];

let t: TestApp;

beforeAll(async () => {
  t = await bootTestApp();
});

afterAll(() => t?.close());

describe('docker-compose.yml', () => {
  const runHealthcheck = async (service: string, port: number) => {
    const [kind, command, ...args] = compose.services[service].healthcheck!.test;
    expect(kind).toBe('CMD');
    return run(command === 'node' ? process.execPath : command, args, { env: { PATH: process.env.PATH, PORT: String(port) } })
      .then(() => 0, (error: { code: number }) => error.code);
  };

  it.each(['api', 'worker'])('gives %s a healthcheck that passes when GET /health answers on its PORT, and fails when nothing does', async (service) => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await runHealthcheck(service, port)).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await runHealthcheck(service, await freePort())).not.toBe(0);
  });

  it('pins every image to a version', () => {
    const images = Object.values(compose.services).flatMap((service) => (service.image ? [service.image] : []));

    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toMatch(/:v?\d+(\.\d+)*$/);
  });

  it('has the README name every variable it requires', () => {
    const required = new Set(
      Object.values(compose.services).flatMap((service) =>
        Object.values(service.environment ?? {}).flatMap((value) => [...String(value).matchAll(/\$\{(\w+):\?/g)].map((m) => m[1])),
      ),
    );

    expect([...required].sort()).toEqual(['DATA_ENCRYPTION_KEY', 'JWT_SECRET', 'WEBHOOK_SIGNING_KEY']);
    for (const name of required) expect(readmeOnCompose).toContain(`\`${name}\``);
  });
});

describe('the token command the README gives for the image', () => {
  // Inside node_modules: the compiled files find the project's packages, and git ignores them.
  const buildDir = mkdtempSync(join(PROJECT_ROOT, 'node_modules', '.mailroom-image-build-'));
  const workDir = mkdtempSync(join(buildDir, 'cwd-'));

  beforeAll(async () => {
    const tsconfig = join(buildDir, 'tsconfig.json');
    writeFileSync(tsconfig, JSON.stringify({ extends: join(PROJECT_ROOT, 'tsconfig.build.json'), compilerOptions: { outDir: join(buildDir, 'dist') } }));
    // The nest CLI takes the tsconfig's path relative to the project only.
    await run(process.execPath, [join(PROJECT_ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build', '--path', relative(PROJECT_ROOT, tsconfig)], { cwd: PROJECT_ROOT });
  });

  afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

  /** As compose's api service runs it: production, the shared secret, what `npm prune --omit=dev` leaves. */
  const token = (args: string[]) =>
    run(process.execPath, ['-r', join(PROJECT_ROOT, 'test/support/production-dependencies-only.js'), join(buildDir, imageTokenCommand!), ...args], {
      cwd: workDir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET },
    });

  it('is a compiled file of the build', () => {
    expect(imageTokenCommand).toMatch(/^dist\/.+\.js$/);
  });

  it('prints a token that the service with the same JWT_SECRET accepts for that user', async () => {
    const userId = newUserId();

    const { stdout } = await token(['--sub', userId, '--ttl', '10m']);

    const sent = await t.http.post('/sender/send').set('Authorization', `Bearer ${stdout.trim()}`)
      .send({ subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'billing@example.com' }).expect(201);
    expect(sent.body.userId).toBe(userId);
    const { exp, iat } = JSON.parse(Buffer.from(stdout.split('.')[1], 'base64url').toString());
    expect(exp - iat).toBe(600);
  });

  it('says how to use it when --sub is missing, and exits 1', async () => {
    const failure = await token([]).catch((error: { code: number; stderr: string }) => error);

    expect(failure).toMatchObject({ code: 1, stderr: expect.stringMatching(/--sub <userId>/) });
  });
});
