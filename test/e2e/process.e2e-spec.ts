// The real entry point as a user runs it (docs/configuration.md): `src/main.ts` in a child process on the
// embedded defaults, with nothing but a DATA_DIR; then the token CLI, SIGTERM and a restart.
import { freePort } from '../../src/platform/free-port';
import { ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sign } from 'jsonwebtoken';
import { sendBody } from '../support/factories';
import { exitWhileProgressing, ProgressWatch, untilDone } from '../support/process-progress';
import {
  exitOf,
  killChild,
  processesMentioning,
  PROJECT_ROOT,
  stopProcessesMentioning,
  TS_NODE,
} from '../support/child-processes';

/** The user the README's example mints a token for (`npm run -s token -- --sub <user>`) and sends as. */
const README_USER = /npm run -s token -- --sub (\S+?)\)/.exec(
  readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'),
)![1];
/** A backstop only: a start is waited for while it makes progress (ProgressWatch), not for a fixed time. */
const TIMEOUT = 10 * 60_000;
/** The token CLI's run (ts-node compiling it), which prints only at the end. */
const CLI_MS = 120_000;
const SHUTDOWN_MS = 30_000;

/** What a test started and the folders it gave them; stopped and removed after it. */
interface Started {
  children: ChildProcessWithoutNullStreams[];
  dataDirs: string[];
}
const perTest: Started = { children: [], dataDirs: [] };

async function stopAndRemove(started: Started): Promise<void> {
  for (const child of started.children.splice(0)) await killChild(child);
  for (const dir of started.dataDirs.splice(0)) {
    // A server killed the hard way leaves its PostgreSQL behind: stop that too, by pid.
    await stopProcessesMentioning(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

afterEach(() => stopAndRemove(perTest), TIMEOUT);

function freshDataDir(owner: Started = perTest): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-process-'));
  owner.dataDirs.push(dir);
  return dir;
}

/**
 * A user's environment: no database and no key configured, so the embedded defaults apply.
 * LOG_LEVEL is dropped as well: the output is what a user sees.
 */
function userEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'TEST_DATABASE_URL',
    'JWT_SECRET',
    'JWT_JWKS_URL',
    'JWT_ISSUER',
    'JWT_AUDIENCE',
    'LOG_LEVEL',
  ]) {
    delete env[name];
  }
  return { ...env, DATA_DIR: dataDir, HOST: '127.0.0.1', NODE_ENV: 'development', ...extra };
}

interface Mailroom {
  child: ChildProcessWithoutNullStreams;
  base: string;
  /** The demo token from the start-up banner. */
  token: string;
  stdout: () => string;
  stderr: () => string;
}

function spawnMailroom(
  dataDir: string,
  env: Record<string, string>,
  owner: Started = perTest,
): {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [...TS_NODE, 'src/main.ts'], { cwd: PROJECT_ROOT, env: userEnv(dataDir, env) });
  owner.children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Starts `src/main.ts` and waits for the banner line that prints the demo user's token. */
async function startMailroom(dataDir: string, owner: Started = perTest): Promise<Mailroom> {
  const port = await freePort();
  const started = spawnMailroom(dataDir, { PORT: String(port) }, owner);
  const { child, stdout, stderr } = started;
  const token = await untilDone(
    () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('it exited');
      return demoTokenIn(stdout());
    },
    'the start-up banner',
    new ProgressWatch([started]),
  ).catch((error: Error) => {
    throw new Error(
      `Mailroom printed no token (${error.message}; exit ${child.exitCode ?? child.signalCode ?? 'none yet'}).\n` +
        `stderr:\n${stderr()}\nstdout (end):\n${stdout().slice(-3000)}`,
      { cause: error },
    );
  });
  return { child, base: `http://127.0.0.1:${port}`, token, stdout, stderr };
}

/** The token from the start-up banner's `Token` line. */
function demoTokenIn(stdout: string): string | undefined {
  return new RegExp(
    `^ {2}Token +(eyJ[\\w-]+\\.[\\w-]+\\.[\\w-]+) {2}\\(user "${README_USER}", valid 24 h\\)$`,
    'm',
  ).exec(stdout)?.[1];
}

async function api(
  base: string,
  path: string,
  options: { token?: string; method?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.token && { Authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the failure message
  }
  return { status: response.status, body };
}

/** The value of one row of the start-up banner (`  Label   value`). */
function bannerRow(stdout: string, label: string): string | undefined {
  return new RegExp(`^ {2}${label} {2,}(.+)$`, 'm').exec(stdout)?.[1];
}

/** Resolves once `check` is true, polling; rejects after `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

describe('the mailroom process (node src/main.ts)', () => {
  // One start serves the checks that only read it and send as its demo user (a start is most of
  // each test's time); what stops, restarts or fails to start has a process of its own below.
  describe('started once on the embedded defaults', () => {
    const shared: Started = { children: [], dataDirs: [] };
    let dataDir: string;
    let mailroom: Mailroom;
    beforeAll(async () => {
      dataDir = freshDataDir(shared);
      mailroom = await startMailroom(dataDir, shared);
    }, TIMEOUT);
    afterAll(() => stopAndRemove(shared), TIMEOUT);

    it(
      'prints a short banner whose addresses answer and a demo token that lists and sends, into the outbox, with no line per route above it',
      async () => {
        const stdout = mailroom.stdout();
        expect(stdout).toContain('Mailroom is ready (ROLE=all)');
        expect(bannerRow(stdout, 'API')).toBe(mailroom.base);
        expect(bannerRow(stdout, 'Swagger UI')).toBe(`${mailroom.base}/docs`);
        expect(bannerRow(stdout, 'Metrics')).toBe(`${mailroom.base}/metrics`);
        expect(bannerRow(stdout, 'Mail')).toBe(
          `written as .eml files to ${join(dataDir, 'outbox')} (set SMTP_URL to send)`,
        );
        for (const url of [bannerRow(stdout, 'Swagger UI')!, bannerRow(stdout, 'Metrics')!])
          expect((await fetch(url)).status).toBe(200);

        // The README's examples' user: what they send shows up under the banner's token (in Swagger UI).
        expect(claims(mailroom.token)).toMatchObject({ sub: README_USER });
        const ready = await api(mailroom.base, '/health/ready');
        expect(ready).toMatchObject({ status: 200, body: { status: 'ok' } });
        const empty = await api(mailroom.base, '/user/messages', { token: mailroom.token });
        expect(empty).toMatchObject({ status: 200, body: { messages: [], total: 0 } });

        const sent = await api(mailroom.base, '/sender/send', {
          method: 'POST',
          token: mailroom.token,
          body: sendBody(),
        });

        expect(sent).toMatchObject({
          status: 201,
          body: { status: 'queued', userId: README_USER, subject: 'Your invoice' },
        });
        const listed = await api(mailroom.base, '/user/messages', { token: mailroom.token });
        expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
        const eml = join(dataDir, 'outbox', `${sent.body.id}.eml`);
        await until(() => existsSync(eml), `${eml} written`);
        // The embedded server keeps its data where docs/configuration.md says.
        expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
        // Nest's lines for each module and route are at debug now.
        expect(mailroom.stdout()).not.toMatch(/Mapped \{|dependencies initialized|RoutesResolver/);
      },
      TIMEOUT,
    );

    it(
      'accepts a token from the token CLI run on the same DATA_DIR, and no token signed with another key',
      async () => {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [...TS_NODE, 'src/auth/token.cli.ts', '--sub', 'someone', '--ttl', '5m'],
          { cwd: PROJECT_ROOT, env: userEnv(dataDir), timeout: CLI_MS },
        );

        const token = stdout.trim();
        expect(token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
        const { sub, iat, exp } = claims(token);
        expect(sub).toBe('someone');
        expect(Number(exp) - Number(iat)).toBe(300);
        const listed = await api(mailroom.base, '/user/messages', { token });
        expect(listed).toMatchObject({ status: 200, body: { messages: [], total: 0 } });
        // The control: the server does not accept just any well-formed token.
        const foreign = sign({}, 'some-other-key-of-at-least-thirty-two-characters', {
          subject: 'someone',
          expiresIn: 300,
        });
        expect((await api(mailroom.base, '/user/messages', { token: foreign })).status).toBe(401);
      },
      TIMEOUT,
    );
  });

  it(
    'exits 1 with one line naming the taken port, and stops the PostgreSQL server it started',
    async () => {
      const dataDir = freshDataDir();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const port = (holder.address() as { port: number }).port;

      try {
        const started = spawnMailroom(dataDir, { PORT: String(port) });
        const { child, stderr } = started;
        const exit = await exitWhileProgressing(child, new ProgressWatch([started]));

        expect({ exit, stderr: stderr() }).toEqual({
          exit: { code: 1, signal: null },
          stderr: `Port ${port} is in use; set PORT to another one.\n`,
        });
        // It had started its database (the port is tried last), and stopped it again.
        expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
        expect(processesMentioning(dataDir)).toEqual([]);
      } finally {
        holder.close();
      }
    },
    TIMEOUT,
  );

  it(
    'exits with code 0 within 30 s of SIGTERM and stops the PostgreSQL server it started',
    async () => {
      const dataDir = freshDataDir();
      const mailroom = await startMailroom(dataDir);
      // Some work first, so that shutdown has a pool and a finished request behind it.
      expect(
        (await api(mailroom.base, '/sender/send', { method: 'POST', token: mailroom.token, body: sendBody() })).status,
      ).toBe(201);
      expect(processesMentioning(dataDir)).not.toHaveLength(0);

      mailroom.child.kill('SIGTERM');
      const exit = await exitOf(mailroom.child, SHUTDOWN_MS);

      // stderr rides along so that a failure shows what the process said on the way out.
      expect({ exit, stderr: mailroom.stderr() }).toEqual({
        exit: { code: 0, signal: null },
        stderr: expect.any(String),
      });
      expect(processesMentioning(dataDir)).toEqual([]);
      await expect(fetch(`${mailroom.base}/health`)).rejects.toThrow();
    },
    TIMEOUT,
  );

  it(
    'shuts down gracefully on Ctrl-C even when the signal comes twice (npm forwards the one its group already got)',
    async () => {
      const dataDir = freshDataDir();
      const mailroom = await startMailroom(dataDir);
      // An idle kept-alive connection holds the shutdown for a moment (the drain's linger), so
      // that the second signal surely comes while it runs.
      const agent = new Agent({ keepAlive: true });
      await new Promise((resolve, reject) =>
        get(`${mailroom.base}/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject),
      );

      mailroom.child.kill('SIGINT');
      await until(() => mailroom.stdout().includes('SIGINT: shutting down'), 'the first SIGINT handled');
      mailroom.child.kill('SIGINT');
      const exit = await exitOf(mailroom.child, SHUTDOWN_MS);
      agent.destroy();

      expect({ exit, stderr: mailroom.stderr() }).toEqual({
        exit: { code: 0, signal: null },
        stderr: expect.any(String),
      });
      expect(processesMentioning(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'keeps messages and its key when started again on the same DATA_DIR',
    async () => {
      const dataDir = freshDataDir();
      const first = await startMailroom(dataDir);
      const sent = await api(first.base, '/sender/send', { method: 'POST', token: first.token, body: sendBody() });
      expect(sent.status).toBe(201);
      first.child.kill('SIGTERM');
      expect(await exitOf(first.child, SHUTDOWN_MS)).toBeDefined();

      const second = await startMailroom(dataDir);

      const listed = await api(second.base, '/user/messages', { token: second.token });
      expect(listed).toMatchObject({ status: 200, body: { total: 1 } });
      expect(listed.body.messages[0]).toMatchObject({
        id: sent.body.id,
        subject: sent.body.subject,
        sentAt: sent.body.sentAt,
      });
      // The generated key was reused: the first run's token still works.
      expect((await api(second.base, '/user/messages', { token: first.token })).status).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'refuses to start with PORT=notaport, naming PORT on stderr',
    async () => {
      const dataDir = freshDataDir();

      const started = spawnMailroom(dataDir, { PORT: 'notaport' });
      const { child, stdout, stderr } = started;
      const exit = await exitWhileProgressing(child, new ProgressWatch([started]));

      expect(exit).toEqual({ code: expect.any(Number), signal: null });
      expect(exit.code).not.toBe(0);
      expect(stderr()).toMatch(/\bPORT\b/);
      expect(stdout()).not.toContain('Listening on');
      // Configuration is checked before anything starts.
      expect(processesMentioning(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );
});
