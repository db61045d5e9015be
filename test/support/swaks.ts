import { existsSync } from 'node:fs';
import { noticeSkip } from './skip-notice';

/**
 * Debian's package, which .ci/run installs when it can: an SMTP client nobody here wrote.
 * SWAKS_PATH overrides it, so that a run can hide it (SWAKS_PATH=/nonexistent) and show the skips.
 */
export const SWAKS = process.env.SWAKS_PATH || '/usr/bin/swaks';

/** `it` when swaks is installed; else `it.skip`, saying so once per file with what is skipped. */
export function itIfSwaks(skippedWhat: string): jest.It {
  if (existsSync(SWAKS)) return it;
  noticeSkip(`${skippedWhat} SKIPPED: no swaks at ${SWAKS} (apt-get install swaks)`);
  return it.skip;
}
