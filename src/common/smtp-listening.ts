import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';

/**
 * Starts an smtp-server on `port` (0: a free one) and `host`: resolves once it listens, rejects
 * when it cannot (the port is taken). After that, what a client does to its own connection is
 * its business: such errors go to `onClientError`, not to the process.
 */
export async function listenSmtp(
  server: SMTPServer,
  port: number,
  host: string,
  onClientError: (err: Error) => void,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onClientError);
}

/** The port a listening smtp-server took; undefined when there is none. */
export function smtpPortOf(server: SMTPServer | undefined): number | undefined {
  return (server?.server.address() as AddressInfo | null)?.port;
}

/** Replies 421 to the session and so ends it (smtp-server closes the connection after any 421). */
export function hangUp(server: SMTPServer | undefined, sessionId: string, why: string): void {
  for (const connection of server?.connections ?? []) {
    if (connection.id === sessionId) connection.send(421, `Error: ${why}, closing connection`);
  }
}

/**
 * Hangs up on the session once `ms` have passed, however busy it keeps (the idle timeout alone
 * lets a client that sends a byte now and then stay for ever); the caller clears the timer at close.
 */
export function sessionDeadline(server: () => SMTPServer | undefined, sessionId: string, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => hangUp(server(), sessionId, 'session too long'), ms);
  timer.unref();
  return timer;
}
