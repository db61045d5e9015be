import { spawn } from 'node:child_process';
import { freePort } from '../../src/platform/free-port';
import { mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { BROWSER_TIMEOUT, launchChromium } from './browser';
import { killChild, PROJECT_ROOT } from './child-processes';
import { TestDnsServer } from './dns-server';
import { exitWhileProgressing, ProgressWatch } from './process-progress';
import { bootTestApp, type TestApp } from './test-app';
import { bearer } from './tokens';

const BUILD_LOCK = join(PROJECT_ROOT, 'console', '.build-lock');
/**
 * How long a file waits for another's build to release the lock, and the backstop of the hook that
 * builds: the build itself is waited for while it makes progress (ProgressWatch), however slow.
 */
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** Screenshots for a reviewer to look at (git-ignored). */
export const SCREENSHOTS = join(PROJECT_ROOT, 'test', 'browser', 'screenshots');

/**
 * The console as the app serves it (console/dist), built first when its sources or the server's
 * changed since (scripts/build-console.js --if-needed); one test file builds while others wait.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${BUILD_LOCK} held for ${BUILD_TIMEOUT_MS} ms; remove it if stale`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await buildConsole();
  } finally {
    rmdirSync(BUILD_LOCK);
  }
}

/** scripts/build-console.js --if-needed, waited for while it (its compilers included) makes progress. */
async function buildConsole(): Promise<void> {
  const child = spawn(process.execPath, ['scripts/build-console.js', '--if-needed'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const build = { child, stdout: () => stdout, stderr: () => stderr };
  const exit = await exitWhileProgressing(child, new ProgressWatch([build])).catch(async (error: Error) => {
    await killChild(child);
    throw error;
  });
  if (exit.code !== 0)
    throw new Error(`The console build failed (${exit.code ?? exit.signal}):\n${stderr.slice(-3000)}`);
}

/** A fresh context (its own sessionStorage) and page; `width` 375 for the narrow viewport. */
export async function newConsolePage(browser: Browser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  // A missing element fails with Playwright's message well before jest's timeout.
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Opens `path` of the console and signs in there with `token` (an API key or a JWT): "Sign in with a key". */
export async function signIn(page: Page, baseUrl: string, token: string, path = '/console/messages'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('button', { name: 'Sign in with a key' }).click();
  await page.getByLabel('API key or JWT').fill(token);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Opens `path` of the console and signs in there as a member, with its email and password. */
export async function signInAsMember(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
  path = '/console/overview',
): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Counts the answers the page gets from `path` (GET), from now on. */
export function answersFrom(page: Page, path: string): () => number {
  let answered = 0;
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && new URL(response.url()).pathname === path) answered++;
  });
  return () => answered;
}

/**
 * Waits for `locator` to show; the deadline is progress, not wall time: it fails once the page's
 * list has been answered `refreshes` more times without it (on a busy machine an interval of
 * 5 s may take 20; what counts is that the page asked again and still did not show it).
 */
export async function appearsWithin(locator: Locator, answered: () => number, refreshes = 3): Promise<number> {
  const from = answered();
  let seen = from;
  let lastProgress = Date.now();
  for (;;) {
    if (await locator.isVisible()) return answered() - from;
    if (answered() - from >= refreshes)
      throw new Error(`not shown after ${refreshes} refreshes of the list: ${String(locator)}`);
    if (answered() !== seen) [seen, lastProgress] = [answered(), Date.now()];
    if (Date.now() - lastProgress > 60_000) throw new Error(`the list did not refresh in a minute: ${String(locator)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Unfolds a list's filters, which stay folded until asked for unless the URL applies some (issue 33). */
export async function openFilters(page: Page): Promise<void> {
  await page.locator('details.filters:not([open]) > summary').click();
  await page.locator('details.filters[open]').waitFor();
}

/** A new API key of `userId` with `scopes`, made through the API: `{id, key, …}` as it answers. */
export async function newApiKey(t: TestApp, userId: string, scopes: string[]): Promise<{ id: string; key: string }> {
  return (await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'console', scopes }).expect(201)).body;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * The page's serious and critical accessibility violations by axe-core, injected as the page's
 * own script through the DevTools protocol (the console's CSP would refuse an inline one).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>('axe.run().then((result) => result.violations)');
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
}

/** How wide the page's content is: more than the viewport means the reader scrolls sideways. */
export const pageWidth = (page: Page): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * For the describe it is called in: the console built, a DNS server on loopback that the app
 * verifies domains against, the app listening on loopback (with `env` besides, on a database of its
 * own when `isolatedDatabase`), and one Chromium for the file.
 */
export function consoleInBrowser(
  env: Record<string, string> = {},
  options: { isolatedDatabase?: boolean; ownOrigin?: boolean } = {},
): { t: TestApp; dns: TestDnsServer; served: { browser: Browser; baseUrl: string } } {
  const t = {} as TestApp;
  const dns = new TestDnsServer();
  const served = {} as { browser: Browser; baseUrl: string };
  beforeAll(async () => {
    await ensureConsoleBuilt();
    // A member's changes must come from PUBLIC_URL's origin (docs/teams.md#signing-in): the app's own, known before it boots.
    const port = options.ownOrigin ? await freePort() : 0;
    const origin: Record<string, string> = options.ownOrigin ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {};
    Object.assign(t, await bootTestApp({ DNS_SERVERS: await dns.start(), ...origin, ...env }, options));
    await t.app.listen(port, '127.0.0.1');
    served.baseUrl = await t.app.getUrl();
    served.browser = await launchChromium();
  }, BUILD_TIMEOUT_MS + BROWSER_TIMEOUT);
  afterAll(async () => {
    await served.browser?.close();
    await t.close?.();
    await dns.stop();
  }, BROWSER_TIMEOUT);
  return { t, dns, served };
}
