import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports this picks from: registered ones, below Linux's ephemeral range by default. */
const LOWEST = 20_000;
const TRIES = 50;

/**
 * A TCP port free on loopback right now, for a listener that starts seconds later (the embedded
 * server's, the tests' processes and servers). It is picked below the system's ephemeral range:
 * a port handed out for port 0 comes from that range, where any outgoing connection on the
 * machine may take it as its local end before the listener binds (seen: EADDRINUSE beside CI's
 * other run), and another process asking for port 0 may be handed it too. A random pick among
 * thousands makes two pickers meeting unlikely; past TRIES taken ports, the system's pick.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralRangeStart() - 1;
  for (let tried = 0; highest > LOWEST && tried < TRIES; tried++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (await bindable(port)) return port;
  }
  return listenOnce(0);
}

function ephemeralRangeStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(start) || 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return listenOnce(port).then(
    () => true,
    () => false,
  );
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}
