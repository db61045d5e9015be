import type { AddressInfo } from 'node:net';
import { SMTPServer, SMTPServerOptions, SMTPServerSession } from 'smtp-server';
import { countedAddress } from '../http/client-address';
import { smtpReply } from './smtp-reply';
import type { SmtpSessionLimits } from './smtp-session-limits';

/** Where to listen, and what to do with a client's own connection errors. */
export interface SmtpListenAt {
  /** 0: a free one. */
  port: number;
  host: string;
  onClientError: (err: Error) => void;
}

/**
 * The life of an SMTP server of ours (the inbound listener, the submission server): created
 * with what both share (SmtpSessionLimits' connections, in all and per client address, no reverse
 * lookup, no logger of its own),
 * listening, each session's state kept from connect to close and the session cut off at its
 * deadline, and at close the sessions in flight given the server's closeTimeout. `S` is what the
 * owner keeps per session.
 */
export class SmtpListening<S> {
  private server?: SMTPServer;
  private readonly sessions = new Map<string, { state: S; deadline: NodeJS.Timeout; address: string }>();
  /** Sessions open per client address (countedAddress: an IPv6 client's /64); an address with none is not kept. */
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: SmtpSessionLimits) {}

  /** The port it listens on (the one chosen for port 0); undefined when it does not. */
  get port(): number | undefined {
    return (this.server?.server.address() as AddressInfo | null)?.port;
  }

  /** A session's state, from its connect until it closes (or the server does); undefined after. */
  session(id: string): S | undefined {
    return this.sessions.get(id)?.state;
  }

  /**
   * Creates the server and resolves once it listens; rejects when it cannot (the port is taken).
   * `open` gives a new session its state, or the error that refuses it at connect. After that,
   * what a client does to its own connection is its business: such errors go to
   * `at.onClientError`, not to the process.
   */
  async listen(
    options: Omit<SMTPServerOptions, 'onConnect' | 'onClose'>,
    open: (session: SMTPServerSession) => S | Error,
    at: SmtpListenAt,
  ): Promise<void> {
    const server = new SMTPServer({
      ...options,
      maxClients: this.limits.clients,
      disableReverseLookup: true,
      logger: false,
      onConnect: (session, callback) => {
        const address = countedAddress(session.remoteAddress);
        const held = this.perAddress.get(address) ?? 0;
        // Read now: a test may lower it on a running server.
        if (held >= this.limits.clientsPerAddress) return callback(tooManyFromAddress());
        const state = open(session);
        if (state instanceof Error) return callback(state);
        this.perAddress.set(address, held + 1);
        this.sessions.set(session.id, { state, deadline: this.deadline(session.id), address });
        callback();
      },
      onClose: (session) => this.forget(session.id),
    });
    this.server = server;
    // On the SMTPServer, which passes on its net server's errors: with no listener there, a taken
    // port would be thrown from the event instead of rejecting.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at.port, at.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', at.onClientError);
  }

  /** Stops accepting, gives sessions in flight the server's closeTimeout to finish, then closes them. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const { deadline } of this.sessions.values()) clearTimeout(deadline);
    this.sessions.clear();
    this.perAddress.clear();
  }

  /**
   * Hangs up on the session once SmtpSessionLimits.sessionMs (read now: a test may shorten it)
   * have passed, however busy it keeps: the idle timeout alone lets a client that sends a byte now
   * and then stay for ever.
   */
  private deadline(sessionId: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.hangUp(sessionId, 'session too long'), this.limits.sessionMs);
    timer.unref();
    return timer;
  }

  /** Replies 421 to the session and so ends it (smtp-server closes the connection after any 421). */
  private hangUp(sessionId: string, why: string): void {
    for (const connection of this.server?.connections ?? []) {
      if (connection.id === sessionId) connection.send(421, `Error: ${why}, closing connection`);
    }
  }

  private forget(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    clearTimeout(session.deadline);
    this.sessions.delete(sessionId);
    const held = this.perAddress.get(session.address)! - 1;
    if (held > 0) this.perAddress.set(session.address, held);
    else this.perAddress.delete(session.address);
  }
}

/** smtp-server answers an error with its responseCode and closes the connection. */
function tooManyFromAddress(): Error {
  return smtpReply(421, 'Too many connections from your address, try again later');
}
