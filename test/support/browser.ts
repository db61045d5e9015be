import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

// Debian's package, which .ci/run installs when it can; playwright-core brings no browser.
const CHROMIUM = '/usr/bin/chromium';
// Without the networking switches Chromium keeps calling Google services, which this closed
// network refuses over and over.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
/** A browser start and the app's boot together can take several seconds on a slow machine. */
export const BROWSER_TIMEOUT = 60_000;

/** `describe` when Chromium is installed; else `describe.skip`, saying so once with what is skipped. */
export function describeInBrowser(skippedWhat: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  console.warn(`${skippedWhat} SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return describe.skip;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
