import type { SecureContext, TLSSocket } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

/** How long a connection may take to be set up, and how long a reply may keep us waiting (as the relays' pools). */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
/** How long closing waits for the server to close its side after QUIT. */
const CLOSE_WAIT_MS = 2_000;

/** What to open: the MX host's name (for TLS), one of its addresses, and how TLS is to be used. */
export interface MxConnectionTarget {
  host: string;
  address: string;
  port: number;
  heloName: string;
  /** A local address to bind to (DELIVERY_SOURCE_ADDRESSES), or the system's choice. */
  localAddress?: string;
  /** `required`: STARTTLS with a certificate valid for `host` or no session (MTA-STS enforce); `offered`: when offered; `never`: in clear. */
  tls: 'required' | 'offered' | 'never';
  /** The CAs a certificate is checked against (the system's plus MTA_STS_CA_FILE): DirectTrust's one context. */
  trust: SecureContext;
}

/** nodemailer's error: its code, and the server's reply and the command it answered when there was one. */
export type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

/** A failure to set a session up; `tls` when it failed in the TLS handshake. */
export class OpenFailure extends Error {
  constructor(
    readonly error: SmtpError,
    readonly tls: boolean,
  ) {
    super(error.message);
  }
}

/**
 * One SMTP session with an MX host over nodemailer's SMTPConnection, its callbacks as promises.
 * It knows whether TLS protects it, and whether the certificate was valid for the host (checked
 * even when not required, for MTA-STS testing mode's report).
 */
export class MxConnection {
  /** Messages sent over it. */
  sent = 0;
  private broken = false;

  private constructor(
    private readonly connection: SMTPConnection,
    readonly host: string,
  ) {
    connection.on('error', () => (this.broken = true));
    connection.on('end', () => (this.broken = true));
  }

  /** Connects, reads the greeting, says EHLO and upgrades with STARTTLS as `target.tls` says. */
  static open(target: MxConnectionTarget): Promise<MxConnection> {
    const connection = new SMTPConnection({
      host: target.address,
      port: target.port,
      name: target.heloName,
      localAddress: target.localAddress,
      // The name the certificate must be valid for, not the address connected to.
      servername: target.host,
      ignoreTLS: target.tls === 'never',
      requireTLS: target.tls === 'required',
      // One context for every connection: `ca` here would have Node build one per STARTTLS (DirectTrust).
      tls: { rejectUnauthorized: target.tls === 'required', secureContext: target.trust, servername: target.host },
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
      logger: false,
    });
    // An error after the first (a late socket error of a closed session) must not throw as an unheard 'error' event.
    connection.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      let settled = false;
      connection.once('error', (error: SmtpError) => {
        if (settled) return;
        settled = true;
        connection.close();
        // Still upgrading when it failed: the TLS handshake (or what came right after it) is to blame.
        reject(new OpenFailure(error, error.code === 'ETLS' || connection.upgrading === true));
      });
      connection.connect(() => {
        if (settled) return;
        settled = true;
        resolve(new MxConnection(connection, target.host));
      });
    });
  }

  /** Whether STARTTLS (or TLS) protects the session. */
  get tls(): boolean {
    return this.connection.secure;
  }

  /** Whether the host's certificate was valid for its name against the CAs given. */
  get verified(): boolean {
    const socket = this.connection._socket as TLSSocket | false | null;
    return this.tls && !!socket && socket.authorized === true;
  }

  /** Still open and not failed: may carry another message. */
  get usable(): boolean {
    return !this.broken && !this.connection.destroyed;
  }

  /** One transaction: MAIL FROM, RCPT TO for each recipient, DATA. Rejects when no recipient was accepted or DATA failed. */
  send(from: string, to: string[], message: Buffer): Promise<SMTPConnection.SentMessageInfo> {
    this.sent += 1;
    return new Promise((resolve, reject) => {
      this.connection.send({ from, to }, message, (error, info) => (error ? reject(error) : resolve(info)));
    });
  }

  /** RSET: a clean session for the next message on the same connection. */
  reset(): Promise<void> {
    return new Promise((resolve, reject) => this.connection.reset((error) => (error ? reject(error) : resolve())));
  }

  /**
   * Closes the socket at once, without QUIT or waiting for a reply: for a server that stalls past
   * the send's deadline. A transaction under way then gets no answer.
   */
  destroy(): void {
    this.broken = true;
    const socket = this.connection._socket;
    this.connection.close();
    if (socket && !socket.destroyed) socket.destroy();
  }

  /**
   * QUIT; resolves once the socket has closed, or after CLOSE_WAIT_MS. Until then the server still
   * counts the connection among ours: the site's lease is given back only after it (a new
   * connection of another worker would otherwise make one more than the limit for a moment).
   */
  close(): Promise<void> {
    this.broken = true;
    const socket = this.connection._socket;
    if (!socket || socket.destroyed) {
      this.connection.quit();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      timer.unref();
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.connection.quit();
    });
  }
}
