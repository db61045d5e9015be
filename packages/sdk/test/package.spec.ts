// The built package as a user installs it (packages/sdk/package.json's `exports`): required from
// CommonJS and imported as an ES module by Node, with the types TypeScript finds through each
// condition, and run on each runtime it promises (Node 20+, Bun, Deno): the same script
// (runtimes/check.mjs) under each found on PATH, a missing one skipped, saying so. Builds the
// package first (`node scripts/sdk.js build`), in this one file so that no other removes it meanwhile.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noticeSkip } from '../../../test/support/skip-notice';

const ROOT = join(__dirname, '..', '..', '..');

function onPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

const RUNTIMES: [string, string | undefined, string[]][] = [
  ['node', process.execPath, []],
  ['bun', onPath('bun'), []],
  // Deno reads node_modules when told to, and needs leave to listen, connect and read.
  ['deno', onPath('deno'), ['run', '--allow-net', '--allow-read', '--allow-env', '--node-modules-dir=manual']],
];

/** What runtimes/check.mjs prints when the client and verifyWebhook work. */
const CHECKED = {
  requests: 3,
  query: '/user/messages?statuses=sent,failed',
  missing: '404 r2',
  event: 'endpoint.test',
  refused: 'WebhookVerificationError',
};

/** Signs with standardwebhooks and verifies with the package, printing what it got. */
const roundTrip = (load: string) => `${load}
const { Webhook } = STANDARD;
const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: 'e1', type: 'endpoint.test', timestamp: new Date().toISOString(), data: {} });
const at = new Date();
const headers = { 'webhook-id': 'e1', 'webhook-timestamp': String(Math.floor(at / 1000)), 'webhook-signature': new Webhook(secret).sign('e1', at, body) };
const client = new sdk.Mailroom({ baseUrl: 'http://127.0.0.1:9', apiKey: 'mr_x' });
sdk.verifyWebhook(body, headers, secret).then((event) => console.log(typeof client.emails.listAll, event.type, typeof sdk.MailroomError));
`;

describe('the built package', () => {
  let dir: string;
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/sdk.js', 'build'], { cwd: ROOT, stdio: 'pipe' });
    // A project that has installed it: node_modules/@mailroom/sdk and its dependency.
    dir = mkdtempSync(join(tmpdir(), 'mailroom-sdk-user-'));
    mkdirSync(join(dir, 'node_modules', '@mailroom'), { recursive: true });
    symlinkSync(join(ROOT, 'packages', 'sdk'), join(dir, 'node_modules', '@mailroom', 'sdk'));
    for (const name of ['openapi-fetch', 'openapi-typescript-helpers', 'standardwebhooks'])
      symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
    copyFileSync(join(__dirname, 'runtimes', 'check.mjs'), join(dir, 'check.mjs'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (file: string) => execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' }).trim();

  it('works when required (CommonJS) and imported (ES module)', () => {
    writeFileSync(
      join(dir, 'user.cjs'),
      roundTrip("const sdk = require('@mailroom/sdk'); const STANDARD = require('standardwebhooks');"),
    );
    writeFileSync(
      join(dir, 'user.mjs'),
      roundTrip("import * as sdk from '@mailroom/sdk'; import * as STANDARD from 'standardwebhooks';"),
    );
    expect(run('user.cjs')).toBe('function endpoint.test function');
    expect(run('user.mjs')).toBe('function endpoint.test function');
  });

  it.each(['node16', 'bundler'])(
    'is typed for a TypeScript user resolving modules as %s',
    (resolution) => {
      writeFileSync(
        join(dir, 'user.mts'),
        [
          "import { Mailroom, MailroomError, type Email } from '@mailroom/sdk';",
          "const mailroom = new Mailroom({ baseUrl: 'http://localhost:3000', apiKey: 'mr_x' });",
          "export const sent: Promise<Email> = mailroom.emails.send({ sender: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'x' });",
          "export const page = mailroom.emails.list({ statuses: ['sent', 'failed'] });",
          'export const isError = (error: unknown) => error instanceof MailroomError && error.errors.length > 0;',
          '// @ts-expect-error: a status the API does not have.',
          "export const wrong = mailroom.emails.list({ statuses: ['delivered'] });",
        ].join('\n'),
      );
      const module = resolution === 'node16' ? 'node16' : 'esnext';
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const args = ['--noEmit', '--strict', '--module', module, '--moduleResolution', resolution, '--target', 'es2022'];
      // tsc reports on stdout: its findings are the failure's message.
      const result = spawnSync(process.execPath, [tsc, ...args, '--lib', 'es2022,dom', 'user.mts'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(result.stdout).toBe('');
      expect(result.status).toBe(0);
    },
    60_000,
  );

  for (const [name, binary, args] of RUNTIMES) {
    if (!binary) noticeSkip(`sdk package: ${name} is not on PATH; the SDK was not run on it`);
    (binary ? it : it.skip)(
      `sends, retries, throws and verifies on ${name}`,
      () => {
        const check = spawnSync(binary!, [...args, 'check.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
        expect(check.stderr).toBe('');
        expect(check.status).toBe(0);
        expect(JSON.parse(check.stdout)).toEqual(CHECKED);
      },
      90_000,
    );
  }
});
