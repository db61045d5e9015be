import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '../config/app-config';

const CLAIM_FILE = 'mailroom.pid';

/**
 * Makes this process the one that runs the embedded PostgreSQL of `dataDir`, or stops it with one
 * line naming the process that already does (a second `npm start` in the same folder). The claim,
 * DATA_DIR/mailroom.pid, holds the pid and HTTP port; it goes when this process exits, and a claim
 * whose process is gone (killed, say) is taken over.
 */
export function claimDataDir(dataDir: string, port: number): void {
  const path = join(dataDir, CLAIM_FILE);
  mkdirSync(dataDir, { recursive: true });
  // Written whole first, then linked in place: the link fails if the claim exists, so of two
  // processes starting at once one claims and the other reads a complete claim.
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, JSON.stringify({ pid: process.pid, port }), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, path);
        process.once('exit', () => releaseClaim(path));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      }
      const holder = readClaim(path);
      if (holder && holder.pid !== process.pid && isRunning(holder.pid)) {
        throw new ConfigurationError(
          `Mailroom already runs on DATA_DIR ${dataDir} (pid ${holder.pid}, port ${holder.port}); stop it, or set DATA_DIR to another folder.`,
        );
      }
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(draft, { force: true });
  }
}

function releaseClaim(path: string): void {
  // Only our own: a process that took over a claim it thought stale must keep it.
  if (readClaim(path)?.pid === process.pid) unlinkSync(path);
}

function readClaim(path: string): { pid: number; port: number } | undefined {
  try {
    const { pid, port } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; port?: unknown };
    return Number.isInteger(pid) ? { pid: pid as number, port: port as number } : undefined;
  } catch {
    return undefined; // gone, or half written by a process that died: not a live claim
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
