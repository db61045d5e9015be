import { Browser } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from './chromium';
import { bootTestApp, TestApp } from './test-app';
import { noticeSkip } from './skip-notice';

/** A browser start and the app's boot together can take several seconds on a slow machine. */
export const BROWSER_TIMEOUT = 60_000;

/** `describe` when Chromium is installed; else `describe.skip`, saying so once with what is skipped. */
export function describeInBrowser(skippedWhat: string): jest.Describe {
  if (hasChromium()) return describe;
  noticeSkip(`${skippedWhat} SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return describe.skip;
}

export { launchChromium };

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
