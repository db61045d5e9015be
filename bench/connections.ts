// Database connections as the sizing table counts them (docs/scaling.md#sizing): each process's
// own TCP connections to the database's port, read from /proc (what its pools hold, TypeORM's and
// pg-boss's alike), and the server's connections to one database, read from pg_stat_activity
// (behind a pooler: the pooler's server connections, whoever its clients are). Linux only.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Client } from 'pg';

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed between the listing and the read.
    }
  }
  return inodes;
}

const ESTABLISHED = '01';

/** How many established TCP connections process `pid` has to `port` on any address. */
export function connectionsTo(pid: number, port: number): number {
  const inodes = socketInodes(pid);
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const remotePort = parseInt(fields[2].split(':').pop()!, 16);
      if (remotePort === port && fields[3] === ESTABLISHED && inodes.has(fields[9])) count++;
    }
  }
  return count;
}

/** The application_name of the bench's own clients, which the server's count leaves out. */
export const BENCH_APPLICATION = 'mailroom-bench';

/** The server's client connections to database `name` (not autovacuum's), but the bench's own (BENCH_APPLICATION). */
export async function serverConnections(monitor: Client, name: string): Promise<number> {
  const { rows } = await monitor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = $1 AND backend_type = 'client backend'
        AND application_name IS DISTINCT FROM $2 AND pid <> pg_backend_pid()`,
    [name, BENCH_APPLICATION],
  );
  return rows[0].n;
}

export interface ConnectionCounts {
  /** Per named process: its connections to the database's port (the server's or the pooler's). */
  processes: Record<string, number>;
  /** The server's connections to the database. */
  server: number;
}

/**
 * Samples every `everyMs` until stopped, keeping each count's peak: what the processes held at
 * most while a load ran (or at rest, when nothing runs).
 */
export function peakConnections(
  monitor: Client,
  database: string,
  pids: Record<string, number>,
  port: number,
  everyMs = 100,
): { stop(): Promise<ConnectionCounts> } {
  const peak: ConnectionCounts = { processes: Object.fromEntries(Object.keys(pids).map((k) => [k, 0])), server: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      for (const [name, pid] of Object.entries(pids))
        peak.processes[name] = Math.max(peak.processes[name], connectionsTo(pid, port));
      peak.server = Math.max(peak.server, await serverConnections(monitor, database));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await sampling;
      return peak;
    },
  };
}
