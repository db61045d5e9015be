/**
 * The CPU time (user + system, in ms) this process spends running `work`. Unlike wall time it
 * hardly changes when other processes load the machine, so a budget on it tells a linear check
 * from a quadratic one without failing on a busy CI runner.
 */
export function cpuMsOf<T>(work: () => T): { result: T; cpuMs: number } {
  const before = process.cpuUsage();
  const result = work();
  const { user, system } = process.cpuUsage(before);
  return { result, cpuMs: (user + system) / 1000 };
}
