import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

/**
 * An address of 127.0.0.10 to 127.0.0.250, drawn at random: a server that must listen on a fixed
 * port (443 for an MTA-STS policy host, 25 for an MX) takes one of its own, so that test files
 * running side by side do not collide. Linux routes all of 127/8 to the loopback interface.
 */
export function randomLoopbackAddress(): string {
  return `127.0.0.${randomInt(10, 251)}`;
}

/**
 * Why `port` on `address` cannot be listened on (a port below 1024 without root, say), or
 * undefined when it can. Asked of a child process, synchronously, so that a test file can choose
 * `it` or `it.skip` when it loads.
 */
export function cannotListen(address: string, port: number): string | undefined {
  const probe = `require('node:net').createServer().once('error', (e) => { process.stdout.write(e.code); process.exit(1); })
    .listen(${port}, '${address}', function () { this.close(); })`;
  const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 10_000 });
  if (result.status === 0) return undefined;
  return `cannot listen on ${address}:${port} (${result.stdout || result.error?.message || 'unknown error'})`;
}
