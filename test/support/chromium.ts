import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

// Debian's package, which .ci/run installs when it can; playwright-core brings no browser.
// CHROMIUM_PATH overrides it, so that a run can hide it (CHROMIUM_PATH=/nonexistent) and show the skips.
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
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

export const hasChromium = (): boolean => existsSync(CHROMIUM);

/** Debian's Chromium, headless (the tests' and the console benchmark's). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
