import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

/** A session's MAIL FROM as the sink saw it: the name the client gave in EHLO and whether TLS protected it. */
export interface SinkSession {
  sessionId: string;
  heloName: string;
  secure: boolean;
  /** The client's address: the local address it bound to. */
  remoteAddress: string;
  /** Date.now() when the MAIL FROM came. */
  at: number;
}

/**
 * TLS on the sink: STARTTLS offered with this certificate, or smtp-server's own (`builtin`, for
 * localhost and long expired: fine for opportunistic TLS), or `broken`: STARTTLS offered but every
 * handshake fails (no cipher a client can agree to), as on a misconfigured server.
 */
export type SinkTls = { key: Buffer; cert: Buffer } | 'builtin' | 'broken';

/** What the sink answers to one message's DATA: accept it, or reply with an SMTP error. */
export type SinkReply = 'accept' | { code: number; message: string };

/**
 * A real SMTP server on loopback for the tests. By default it accepts everything; a test can
 * refuse recipients (for good, or for now: greylisting), answer DATA with an error, or hold DATA
 * open (to kill a worker mid-delivery).
 */
export class SmtpSink {
  readonly accepted: ReceivedMail[] = [];
  /** Every DATA the server saw the end of, accepted or not, by Message-ID. */
  readonly attempts: string[] = [];
  /** Envelope senders in the order their MAIL FROM arrived: a delivery begun, whatever follows. */
  readonly mailFrom: string[] = [];
  refuseRecipients = new Set<string>();
  /** Recipients (lowercased) refused at RCPT TO with the reply given, for good. */
  readonly refuseWith = new Map<string, { code: number; message: string }>();
  /** Recipients (lowercased) answered 451 at RCPT TO as many more times as given, then accepted: greylisting. */
  readonly greylist = new Map<string, number>();
  reply: (mail: ParsedMail, attempt: number) => SinkReply | Promise<SinkReply> = () => 'accept';
  /** The reply to a MAIL FROM naming the envelope sender given: undefined accepts it. */
  senderReply: (address: string) => { code: number; message: string } | undefined = () => undefined;
  /** The command lines clients sent, as sent (`RCPT TO:<a@xn--bcher-kva.example>`). */
  readonly commands: string[] = [];
  /** Each MAIL FROM's session. */
  readonly sessions: SinkSession[] = [];
  /** Connections opened to the sink, and closed. */
  connections = 0;
  closed = 0;
  /** Each connection's life (Date.now() when opened, and closed once it is), in the order they came. */
  readonly connectionLog: { id: string; openedAt: number; closedAt?: number }[] = [];
  /** The most connections open at once. */
  peakOpen = 0;
  /** The reply to a new connection instead of the greeting (a 421 turns clients away); undefined greets. */
  greetingReply: { code: number; message: string } | undefined;
  private readonly server: SMTPServer;
  private waiters: (() => void)[] = [];

  constructor(tls?: SinkTls) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: tls ? [] : ['STARTTLS'],
      ...(tls === 'broken'
        ? { maxVersion: 'TLSv1.2' as const, ciphers: 'PSK-AES128-CBC-SHA' }
        : typeof tls === 'object' && { key: tls.key, cert: tls.cert }),
      // Only the client's command lines, as they came on the wire (the envelope's addresses are decoded from punycode).
      logger: {
        debug: (_entry: unknown, kind: unknown, line: unknown) =>
          void (kind === 'C:' && this.commands.push(String(line))),
        trace: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
        fatal: () => undefined,
      } as never,
      onConnect: (session, callback) => {
        this.connections += 1;
        this.connectionLog.push({ id: session.id, openedAt: Date.now() });
        this.peakOpen = Math.max(this.peakOpen, this.connections - this.closed);
        const refusal = this.greetingReply;
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      onClose: (session) => {
        this.closed += 1;
        const entry = this.connectionLog.find((c) => c.id === session.id);
        if (entry) entry.closedAt = Date.now();
      },
      onMailFrom: (address, session, callback) => {
        this.mailFrom.push(address.address);
        this.sessions.push({
          sessionId: session.id,
          heloName: session.hostNameAppearsAs,
          secure: session.secure,
          remoteAddress: session.remoteAddress,
          at: Date.now(),
        });
        const refusal = this.senderReply(address.address);
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      onRcptTo: (address, _session, callback) => {
        if (this.refuseRecipients.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
          return callback(error);
        }
        const refusal = this.refuseWith.get(address.address.toLowerCase());
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        const deferrals = this.greylist.get(address.address.toLowerCase()) ?? 0;
        if (deferrals > 0) {
          this.greylist.set(address.address.toLowerCase(), deferrals - 1);
          return callback(Object.assign(new Error('4.7.1 Greylisted, try again later'), { responseCode: 451 }));
        }
        callback();
      },
      onData: (stream, session, callback) => void this.onData(stream, session, callback),
    });
    // A client killed mid-session (kill -9 of a worker) resets its connection; a server carries on.
    this.server.on('error', () => undefined);
  }

  /** Listens on `host` (a loopback address) and `port` (0: a free one); resolves to the port. */
  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(port: number): string {
    return `smtp://127.0.0.1:${port}`;
  }

  acceptedFor(messageId: string): ReceivedMail[] {
    return this.accepted.filter((m) => m.parsed.messageId?.includes(messageId));
  }

  attemptsFor(messageId: string): number {
    return this.attempts.filter((id) => id.includes(messageId)).length;
  }

  /**
   * Resolves once `predicate` holds, checked after each message the sink sees; fails once no
   * message has come for `timeoutMs` (a slow but steady stream on a busy machine is waited for).
   */
  async waitUntil(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
    // A delivery begun (MAIL FROM) or ended (DATA) is progress.
    const progress = () => this.mailFrom.length + this.attempts.length;
    let seen = progress();
    let deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (progress() !== seen) [seen, deadline] = [progress(), Date.now() + timeoutMs];
      if (Date.now() > deadline)
        throw new Error(`The SMTP sink did not see what the test waited for, and no message came for ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  private async onData(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ) {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer);
    } catch {
      return; // the client went away mid-message: nothing arrived
    }
    const raw = Buffer.concat(chunks);
    const parsed = await simpleParser(raw);
    const messageId = parsed.messageId ?? '';
    this.attempts.push(messageId);
    const reply = await this.reply(parsed, this.attemptsFor(messageId));
    if (reply === 'accept') {
      this.accepted.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw,
        parsed,
      });
      callback(null, `2.0.0 Ok: queued as ${this.accepted.length}`);
    } else {
      callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}
