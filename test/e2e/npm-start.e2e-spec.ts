// `npm start` as a user runs it (README): the real npm, the build, the service and its embedded
// PostgreSQL, on a DATA_DIR of this test's own; signals sent to npm must reach the service. And
// the launcher's rule for building (scripts/start.js), on a throwaway tree.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../src/platform/free-port';
import {
  descendantsOf,
  exitOf,
  isAlive,
  killChild,
  RunningProcess,
  ServiceProcess,
  startServiceProcess,
  waitUntilAnswering,
} from '../support/child-processes';
import { exitWhileProgressing, ProgressWatch } from '../support/process-progress';

/**
 * A backstop only: a first `npm start` may build the server and then the console (about 15 + 20 s
 * here, several times that on a busy machine) before it starts, and is waited for while it (the
 * compilers it runs included) prints or uses CPU time, not for a fixed time.
 */
const TIMEOUT = 10 * 60_000;
const SHUTDOWN_MS = 30_000;

let npm: ServiceProcess | undefined;
let tree: RunningProcess[] = [];

afterEach(async () => {
  // What a failed test left behind, by pid: the service may have outlived npm.
  // (PostgreSQL is stopped by npm.stop(), gently: killing it hard would leave its shared memory.)
  for (const { pid } of tree.filter((p) => isAlive(p.pid) && !p.command.includes('postgres')))
    process.kill(pid, 'SIGKILL');
  await npm?.stop();
  npm = undefined;
  tree = [];
}, TIMEOUT);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher: { needsBuild(root: string): boolean; ENTRY: string; STAMP: string } = require('../../scripts/start.js');

/** `npm start` with nothing configured but a DATA_DIR and a port: the embedded defaults. */
async function npmStart(dataDir?: string, port?: number): Promise<ServiceProcess> {
  port ??= await freePort();
  const started = startServiceProcess(
    { ROLE: 'all', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', TEST_DATABASE_URL: '' },
    { command: ['npm', 'start'], dataDir },
  );
  await waitUntilAnswering(`http://127.0.0.1:${port}/health/ready`, started);
  return started;
}

/** The pid of the embedded server, from the first line of its postmaster.pid. */
function postmasterOf(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function untilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm start', () => {
  it(
    'SIGTERM to the npm process stops the service and its PostgreSQL within 30 s',
    async () => {
      npm = await npmStart();
      tree = descendantsOf(npm.child.pid!);
      const postmaster = postmasterOf(npm.dataDir);
      // The control: the tree holds the service and the server whose exit is awaited.
      expect(tree.map((p) => p.pid)).toContain(postmaster);
      expect(tree.filter((p) => p.command.startsWith('node '))).not.toEqual([]);

      npm.child.kill('SIGTERM');
      const left = await untilGone([npm.child.pid!, ...tree.map((p) => p.pid)], SHUTDOWN_MS);
      const exit = await exitOf(npm.child, 1000);

      expect(tree.filter((p) => left.includes(p.pid))).toEqual([]);
      expect({ exit, output: exit?.code === 0 ? '' : npm.tail() }).toEqual({
        exit: { code: 0, signal: null },
        output: '',
      });
    },
    TIMEOUT,
  );
});

describe('npm start on a second run', () => {
  it(
    'does not build when nothing changed since the last build',
    async () => {
      // The first run builds when the sources changed since the last build (or there was none).
      const first = await npmStart();
      first.child.kill('SIGTERM');
      expect(await exitOf(first.child, SHUTDOWN_MS)).toEqual({ code: 0, signal: null });

      npm = await npmStart(first.dataDir);

      expect(npm.stdout()).not.toMatch(/Building|nest build/);
      // The control: what the test reads is the service's output.
      expect(npm.stdout()).toContain('Mailroom is ready');
    },
    TIMEOUT,
  );
});

describe('npm start while the account ada has no member (docs/teams.md#the-first-owner)', () => {
  /** The first owner's link a banner shows. */
  const linkIn = (stdout: string) => /First owner\s+(\S+\/console\/invitation\/([A-Za-z0-9_-]{43}))/.exec(stdout);
  const accept = (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/invitations/${token}/accept`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: 'correct horse battery staple' }),
    });

  it(
    'prints a new link at each start, the previous one withdrawn, and none once someone joined',
    async () => {
      const first = await npmStart();
      const firstLink = linkIn(first.stdout());
      first.child.kill('SIGTERM');
      expect(await exitOf(first.child, SHUTDOWN_MS)).toEqual({ code: 0, signal: null });

      const port = await freePort();
      npm = await npmStart(first.dataDir, port);
      const secondLink = linkIn(npm.stdout());

      expect(firstLink).not.toBeNull();
      expect(secondLink).not.toBeNull();
      expect(secondLink![1]).not.toBe(firstLink![1]);
      expect((await accept(port, firstLink![2])).status).toBe(404);
      expect((await accept(port, secondLink![2])).status).toBe(200);

      // Not through stop(): it would remove the DATA_DIR the third start runs on.
      npm.child.kill('SIGTERM');
      expect(await exitOf(npm.child, SHUTDOWN_MS)).toEqual({ code: 0, signal: null });
      npm = await npmStart(first.dataDir);

      expect(npm.stdout()).toContain('Mailroom is ready');
      expect(npm.stdout()).not.toContain('First owner');
    },
    TIMEOUT,
  );
});

describe('npm start where Mailroom already runs', () => {
  it(
    'stops with one line naming the running process, its pid and port, and exits non-zero; the first keeps running',
    async () => {
      const firstPort = await freePort();
      npm = await npmStart(undefined, firstPort);
      const service = descendantsOf(npm.child.pid!).find((p) => p.command.includes('scripts/start.js'))!;
      const secondPort = await freePort();

      // Not through stop(): it would remove the DATA_DIR the first one runs on.
      const second = startServiceProcess(
        { ROLE: 'all', PORT: String(secondPort), HOST: '127.0.0.1', DATABASE_URL: '', TEST_DATABASE_URL: '' },
        { command: ['npm', 'start'], dataDir: npm.dataDir },
      );
      const exit = await exitWhileProgressing(second.child, new ProgressWatch([second])).catch(() => undefined);
      if (!exit) await killChild(second.child);

      expect(exit?.code).not.toBe(0);
      expect(exit?.code).not.toBeUndefined();
      const ownLines = second
        .stderr()
        .split('\n')
        .filter((line) => line.trim() && !line.startsWith('npm '));
      expect(ownLines).toEqual([
        `Mailroom already runs on DATA_DIR ${npm.dataDir} (pid ${service.pid}, port ${firstPort}); stop it, or set DATA_DIR to another folder.`,
      ]);
      expect(second.stdout()).not.toContain('Nest');
      // The control: the first still answers, on its own database.
      expect((await fetch(`http://127.0.0.1:${firstPort}/health/ready`)).status).toBe(200);
    },
    TIMEOUT,
  );
});

describe('when the launcher builds (scripts/start.js needsBuild)', () => {
  const LONG_AGO = new Date('2026-01-01T00:00:00Z');
  let root: string;

  /** A project tree whose sources are from LONG_AGO and whose build started a minute later. */
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mailroom-launcher-'));
    for (const file of [
      'src/main.ts',
      'src/platform/config/app-config.ts',
      'tsconfig.json',
      'tsconfig.build.json',
      launcher.ENTRY,
    ]) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), '// ...\n');
    }
    writeFileSync(join(root, launcher.STAMP), String(LONG_AGO.getTime() + 60_000));
    for (const path of [
      'src/main.ts',
      'src/platform/config/app-config.ts',
      'src/platform/config',
      'src/platform',
      'src',
      'tsconfig.json',
      'tsconfig.build.json',
    ]) {
      utimesSync(join(root, path), LONG_AGO, LONG_AGO);
    }
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const touch = (path: string) => utimesSync(join(root, path), new Date(), new Date());

  it('does not build when nothing changed since the last build started', () => {
    expect(launcher.needsBuild(root)).toBe(false);
  });

  it.each([
    ['a source file changed', () => touch('src/platform/config/app-config.ts')],
    ['a source file was deleted', () => unlinkSync(join(root, 'src/platform/config/app-config.ts'))],
    ['a source file was added', () => writeFileSync(join(root, 'src/new.ts'), '')],
    ['tsconfig.build.json changed', () => touch('tsconfig.build.json')],
    ['there is no build', () => rmSync(join(root, launcher.ENTRY))],
    ['the last build did not finish (no stamp)', () => rmSync(join(root, launcher.STAMP))],
  ])('builds when %s', (_case, change) => {
    change();
    expect(launcher.needsBuild(root)).toBe(true);
  });

  it('never builds where there are no sources (an image holding dist only)', () => {
    rmSync(join(root, 'src'), { recursive: true });
    rmSync(join(root, launcher.STAMP));
    expect(launcher.needsBuild(root)).toBe(false);
  });
});
