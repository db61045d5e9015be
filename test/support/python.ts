import { spawnSync } from 'node:child_process';
import { noticeSkip } from './skip-notice';

/**
 * Python 3, for its smtplib and email package: clients nobody here wrote. PYTHON_PATH overrides
 * it, so that a run can hide it (PYTHON_PATH=/nonexistent) and show the skips.
 */
export const PYTHON = process.env.PYTHON_PATH || 'python3';

/** Whether PYTHON runs (found on PATH, or at the path given). */
export const pythonPresent = (): boolean => spawnSync(PYTHON, ['--version']).status === 0;

/** `it` when Python runs; else `it.skip`, saying so once per file with what is skipped. */
export function itIfPython(skippedWhat: string): jest.It {
  if (pythonPresent()) return it;
  noticeSkip(`${skippedWhat} SKIPPED: no Python at ${PYTHON} (apt-get install python3)`);
  return it.skip;
}
