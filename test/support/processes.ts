import { readdirSync, readFileSync } from 'node:fs';

export interface RunningProcess {
  pid: number;
  command: string;
}

/**
 * Live processes whose command line contains `text` (a temporary DATA_DIR, say), read from
 * /proc: the embedded PostgreSQL server runs as `postgres -D <DATA_DIR>/postgres`.
 */
export function processesMentioning(text: string): RunningProcess[] {
  const found: RunningProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue; // exited while we looked
    }
    // A zombie has an empty command line: it is gone, only not yet reaped.
    if (command.includes(text)) found.push({ pid: Number(entry), command });
  }
  return found;
}

/**
 * Stops, by pid, what a failed test left behind (a server orphaned by a killed parent): SIGINT
 * first, PostgreSQL's fast shutdown, which also ends its backends; SIGKILL for what remains.
 */
export async function stopProcessesMentioning(text: string, graceMs = 5000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    for (const { pid } of processesMentioning(text)) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + graceMs;
  while (processesMentioning(text).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signal('SIGKILL');
}
