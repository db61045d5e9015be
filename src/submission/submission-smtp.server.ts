import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SMTPServer, SMTPServerAuthentication, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { ApiKeys } from '../auth/api-keys/api-keys';
import { AppConfig } from '../config/app-config';
import { MAX_BODY_BYTES } from '../common/json-body/json-body.interceptor';
import { replyToRefusal, smtpReply } from './smtp-replies';
import { SubmitMessageUseCase } from './submit-message.use-case';
import { listenSmtp, smtpPortOf } from '../common/smtp-listening';

type Callback = (error?: Error | null) => void;

/** Who logged in: the key is kept (in memory, for the session) so that each transaction checks it again. */
interface Submitter {
  key: string;
  userId: string;
}

/**
 * RCPT takes this many, well past any MAX_RECIPIENTS (at most 1,000), so that a message with too
 * many is refused whole at DATA (SPEC §10) rather than cut short at RCPT; past it a client is
 * misbehaving.
 */
const MAX_ENVELOPE_RECIPIENTS = 2000;

/**
 * The SMTP submission server of SPEC §10 (SUBMISSION_SMTP_PORT, API processes): AUTH PLAIN or
 * LOGIN with an API key of scope `send` as the password, after STARTTLS unless insecure AUTH is
 * allowed; each message goes through the same intake as a REST send, with the envelope deciding
 * its recipients.
 */
@Injectable()
export class SubmissionSmtpServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SubmissionSmtp');
  private server?: SMTPServer;

  constructor(
    private readonly config: AppConfig,
    private readonly apiKeys: ApiKeys,
    private readonly submit: SubmitMessageUseCase,
  ) {}

  /** The port it listens on (the one chosen when SUBMISSION_SMTP_PORT is 0); undefined when off. */
  get port(): number | undefined {
    return smtpPortOf(this.server);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { smtpPort } = this.config.submission;
    if (this.config.role === 'worker' || smtpPort === undefined) return;
    this.server = this.createServer();
    // A client's broken connection or failed TLS handshake is its own business.
    await listenSmtp(this.server, smtpPort, this.config.host, (err) => this.logger.warn({ err }, 'SMTP submission connection error'));
    this.logger.log(`SMTP submission on port ${this.port}${this.config.submission.tls ? ' (STARTTLS)' : ' (no TLS)'}`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private createServer(): SMTPServer {
    const { tls, allowInsecureAuth } = this.config.submission;
    return new SMTPServer({
      ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
      allowInsecureAuth,
      authMethods: ['PLAIN', 'LOGIN'],
      // As large as a REST send body may be.
      size: MAX_BODY_BYTES,
      rejectOversized: true,
      maxRecipients: MAX_ENVELOPE_RECIPIENTS,
      disableReverseLookup: true,
      logger: false,
      onAuth: (auth, session, callback) => void this.onAuth(auth, session, callback),
      onMailFrom: (_address, session, callback) => void this.onMailFrom(session, callback),
      onData: (stream, session, callback) => void this.onData(stream, session, callback),
    });
  }

  private async onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, callback: (error: Error | null | undefined, response?: { user: Submitter }) => void): Promise<void> {
    try {
      const key = auth.password ?? '';
      const holder = await this.apiKeys.authenticate(key);
      if (!holder) return callback(smtpReply(535, 'Authentication failed: the password must be an API key of this service'));
      if (!holder.scopes.includes('send')) return callback(smtpReply(535, 'Authentication failed: this API key lacks the send scope'));
      callback(null, { user: { key, userId: holder.userId } });
    } catch (err) {
      this.logger.error({ err }, 'Could not check an API key');
      callback(smtpReply(454, 'Temporary authentication failure, try again later'));
    }
  }

  /** Every transaction checks the key again: one deleted since the login (SPEC §10: within a second) sends nothing more. */
  private async onMailFrom(session: SMTPServerSession, callback: Callback): Promise<void> {
    try {
      const holder = await this.apiKeys.authenticate((session.user as Submitter).key);
      if (!holder?.scopes.includes('send')) return callback(smtpReply(530, 'Authentication required: the API key was deleted'));
      callback();
    } catch (err) {
      this.logger.error({ err }, 'Could not check an API key');
      callback(smtpReply(451, 'Temporary failure, try again later'));
    }
  }

  private async onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null, message?: string) => void): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) if (!stream.sizeExceeded) chunks.push(chunk as Buffer);
    } catch {
      return callback(smtpReply(451, 'The message did not arrive whole'));
    }
    // Past SIZE, smtp-server answers 552 itself (rejectOversized).
    if (stream.sizeExceeded) return callback();
    const { userId } = session.user as Submitter;
    try {
      const message = await this.submit.execute(userId, Buffer.concat(chunks), session.envelope.rcptTo.map((r) => r.address));
      callback(null, `Queued as ${message.id}`);
    } catch (err) {
      const reply = replyToRefusal(err);
      if (!reply) this.logger.error({ err }, 'Could not take in a submitted message');
      callback(reply ?? smtpReply(451, 'Temporary failure, try again later'));
    }
  }
}
