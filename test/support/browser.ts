import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';
import { bootTestApp, TestApp } from './test-app';
import { noticeSkip } from './skip-notice';

// Debian's package, which .ci/run installs when it can; playwright-core brings no browser.
// CHROMIUM_PATH overrides it, so that a run can hide it (CHROMIUM_PATH=/nonexistent) and show the skips.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Without the networking switches Chromium keeps calling Google services, which this closed
// network refuses over and over.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A browser start and the app's boot together can take several seconds on a slow machine. */
export const BROWSER_TIMEOUT = 60_000;

/** `describe` when Chromium is installed; else `describe.skip`, saying so once with what is skipped. */
export function describeInBrowser(skippedWhat: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  noticeSkip(`${skippedWhat} SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return describe.skip;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * For the describe it is called in: an app listening on a real loopback address (port 0 keeps
 * suites apart) and a Chromium, started before its tests and closed after them. Filled in by beforeAll.
 */
export function appInBrowser(): { t: TestApp; served: { browser: Browser; baseUrl: string } } {
  const t = {} as TestApp;
  const served = {} as { browser: Browser; baseUrl: string };
  beforeAll(async () => {
    Object.assign(t, await bootTestApp());
    await t.app.listen(0, '127.0.0.1');
    served.baseUrl = await t.app.getUrl();
    served.browser = await launchChromium();
  }, BROWSER_TIMEOUT);
  afterAll(async () => {
    await served.browser?.close();
    await t.close?.();
  }, BROWSER_TIMEOUT);
  return { t, served };
}
