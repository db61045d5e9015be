import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Pool } from 'pg';
import { cpuMs } from './cpu-time';

/**
 * What several service processes on one database use of it and of the CPU, for a suite's report:
 * the most connections each held at once (pg_stat_activity, sampled), and the CPU seconds each
 * process, the database's backends and the test itself spent between two snapshots.
 */
export class ProcessResources {
  private readonly names = new Map<number, string>();
  private readonly peaks = new Map<string, number>();

  constructor(private readonly database: Pool) {}

  /** Names process `pid` in the report. */
  add(pid: number, name: string): void {
    this.names.set(pid, name);
  }

  /** Counts the connections each process holds now, keeping the peak. */
  async sampleConnections(): Promise<void> {
    const { rows } = await this.database.query<{ port: number }>(
      `SELECT client_port AS port FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const owners = this.portOwners();
    const counts = new Map<string, number>();
    for (const { port } of rows) {
      const owner = owners.get(port) ?? 'other (this test)';
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    for (const [name, n] of counts) this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, n));
  }

  /** The peaks sampled, as one line ('' when none was). */
  peakConnections(): string {
    return [...this.peaks]
      .sort()
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  }

  /** CPU seconds used so far by each process named, each backend on the database, and this test. */
  async cpuSnapshot(): Promise<Map<string, number>> {
    const { user, system } = process.cpuUsage();
    const used = new Map<string, number>([['test (client, sinks, receiver)', (user + system) / 1e6]]);
    for (const [pid, name] of this.names) used.set(name, cpuMs(pid) / 1000);
    const { rows } = await this.database.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
    );
    for (const { pid } of rows) used.set(`postgres backends:${pid}`, cpuMs(pid) / 1000);
    return used;
  }

  /** CPU seconds each process (backends summed) used between two snapshots, as one line. */
  static cpuBetween(before: Map<string, number>, after: Map<string, number>): string {
    const spent = new Map<string, number>();
    for (const [key, seconds] of after) {
      const name = key.split(':')[0];
      spent.set(name, (spent.get(name) ?? 0) + seconds - (before.get(key) ?? 0));
    }
    return [...spent]
      .sort()
      .map(([name, seconds]) => `${name} ${seconds.toFixed(2)}`)
      .join(', ');
  }

  /**
   * Which named process owns each local TCP port, read from /proc (the sockets among a process's
   * open files, and the ports of those sockets): pg_stat_activity names a client only by its
   * address and port.
   */
  private portOwners(): Map<number, string> {
    const ownerOfSocket = new Map<string, string>();
    for (const [pid, name] of this.names) {
      try {
        for (const fd of readdirSync(`/proc/${pid}/fd`)) {
          const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          if (inode) ownerOfSocket.set(inode, name);
        }
      } catch {
        // exited, or closed a file while we looked
      }
    }
    const owners = new Map<number, string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      // Columns: sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const columns = line.trim().split(/\s+/);
        const owner = ownerOfSocket.get(columns[9]);
        if (owner) owners.set(parseInt(columns[1].split(':')[1], 16), owner);
      }
    }
    return owners;
  }
}
