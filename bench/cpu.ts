// Where a bench phase's CPU goes: each taking-part process's CPU time (Linux /proc) between two
// readings, for the CPU tables of the delivery and events sections.
import { cpuMs, treeCpuMs } from '../test/support/cpu-time';

/** The pids of the processes that take part; undefined where one does not (or cannot be read). */
export interface Processes {
  api?: number;
  worker?: number;
  sink: number;
  /** The embedded server's postmaster; undefined on DATABASE_URL's server. */
  postgres?: number;
}
/** CPU time so far (ms) of each process; `client` is the bench's own process. */
export type Cpu = Record<'api' | 'postgres' | 'worker' | 'sink' | 'client', number | undefined>;

export function cpuNow(p: Processes): Cpu {
  const own = process.cpuUsage();
  return {
    api: p.api === undefined ? undefined : cpuMs(p.api),
    worker: p.worker === undefined ? undefined : cpuMs(p.worker),
    sink: cpuMs(p.sink),
    postgres: p.postgres === undefined ? undefined : treeCpuMs(p.postgres),
    client: (own.user + own.system) / 1000,
  };
}

/** A process's CPU between two readings, divided by `per`; undefined where either reading is. */
export function cpuSpent(key: keyof Cpu, before: Cpu, after: Cpu, per: number): number | undefined {
  const [from, to] = [before[key], after[key]];
  return from === undefined || to === undefined ? undefined : (to - from) / per;
}

/** One row of the CPU table: each process's CPU between two readings, divided by `per`. */
export function cpuRow(phase: string, before: Cpu, after: Cpu, per: number, unit: (value: number) => string): string[] {
  const cell = (key: keyof Cpu) => {
    const value = cpuSpent(key, before, after, per);
    return value === undefined ? '—' : unit(value);
  };
  return [phase, cell('api'), cell('postgres'), cell('worker'), cell('sink'), cell('client')];
}

export const msEach = (value: number) => value.toFixed(2);
export const coreShare = (value: number) => `${(value * 100).toFixed(0)} %`;
