import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { SMTPServerAuthentication, SMTPServerDataStream, SMTPServerOptions, SMTPServerSession } from 'smtp-server';
import { ApiKeys } from '../../auth';
import { AppConfig } from '../../platform/config/app-config';
import { MAX_BODY_BYTES } from '../../platform/http/json-body/json-body.interceptor';
import { countedAddress } from '../../platform/http/client-address';
import { SmtpListening } from '../../platform/smtp/smtp-listening';
import { FailureBudget } from '../../auth';
import { boundHeapGrowth } from '../../platform/heap-growth';
import { LARGE_BODY_BYTES } from '../../platform/http/large-body-turn.guard';
import { Slots } from '../../platform/slots';
import { asciiReplyText, SmtpReply, smtpReply } from '../../platform/smtp/smtp-reply';
import { replyToRefusal } from './smtp-replies';
import { SpooledMessage } from '../../platform/smtp/spooled-message';
import { SubmissionLimits } from './submission-limits';
import { SubmitMessageUseCase } from './submit-message.use-case';

type Callback = (error?: Error | null) => void;

/** Who logged in: the key is kept (in memory, for the session) so that each transaction checks it again. */
interface Submitter {
  key: string;
  userId: string;
}

/** What a session has spent of its limits. */
interface SessionState {
  failedLogins: number;
}

/**
 * RCPT takes this many, well past any MAX_RECIPIENTS (at most 1,000), so that a message with too
 * many is refused whole at DATA (docs/api.md#smtp-submission) rather than cut short at RCPT; past it a client is
 * misbehaving.
 */
const MAX_ENVELOPE_RECIPIENTS = 2000;

/**
 * The SMTP submission server of docs/api.md#smtp-submission (SUBMISSION_SMTP_PORT, API processes): AUTH PLAIN or
 * LOGIN with an API key of scope `send` as the password, after STARTTLS unless insecure AUTH is
 * allowed; each message goes through the same intake as a REST send, with the envelope deciding
 * its recipients. What one client may take of the process is SubmissionLimits': connections,
 * session time, failed logins per session and per address, messages in memory at once.
 */
@Injectable()
export class SubmissionSmtpServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SubmissionSmtp');
  private readonly listening: SmtpListening<SessionState>;
  private readonly failedLogins: FailureBudget;
  private readonly inMemory: Slots;

  constructor(
    private readonly config: AppConfig,
    private readonly apiKeys: ApiKeys,
    private readonly submit: SubmitMessageUseCase,
    private readonly limits: SubmissionLimits,
  ) {
    this.failedLogins = new FailureBudget({
      get limit() {
        return limits.failedLoginsPerAddress;
      },
      get windowMs() {
        return limits.failedLoginWindowMs;
      },
    });
    this.inMemory = new Slots(limits.messagesAtOnce);
    this.listening = new SmtpListening(limits);
  }

  /** The port it listens on (the one chosen when SUBMISSION_SMTP_PORT is 0); undefined when off. */
  get port(): number | undefined {
    return this.listening.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { smtpPort } = this.config.submission;
    if (this.config.role === 'worker' || smtpPort === undefined) return;
    await this.listening.listen(this.options(), (session) => this.open(session), {
      port: smtpPort,
      host: this.config.host,
      // A client's broken connection or failed TLS handshake is its own business.
      onClientError: (err) => this.logger.warn({ err }, 'SMTP submission connection error'),
    });
    this.logger.log(`SMTP submission on port ${this.port}${this.config.submission.tls ? ' (STARTTLS)' : ' (no TLS)'}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.listening.close();
  }

  private options(): SMTPServerOptions {
    const { tls, allowInsecureAuth } = this.config.submission;
    return {
      ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
      allowInsecureAuth,
      authMethods: ['PLAIN', 'LOGIN'],
      // As large as a REST send body may be.
      size: MAX_BODY_BYTES,
      rejectOversized: true,
      maxRecipients: MAX_ENVELOPE_RECIPIENTS,
      onAuth: (auth, session, callback) => void this.onAuth(auth, session, callback),
      onMailFrom: (_address, session, callback) => void this.onMailFrom(session, callback),
      onData: (stream, session, callback) => void this.onData(stream, session, callback),
    };
  }

  /** An address that failed too many logins lately is turned away before it can try another. */
  private open(session: SMTPServerSession): SessionState | SmtpReply {
    return this.addressRefusal(session) ?? { failedLogins: 0 };
  }

  /**
   * 421 for an address out of failed logins: at connect, and at every AUTH, since sessions opened
   * while it was still in budget (up to the connection limit) would otherwise try three times each.
   */
  private addressRefusal(session: SMTPServerSession): SmtpReply | undefined {
    if (this.failedLogins.refusal(countedAddress(session.remoteAddress)))
      return smtpReply(421, 'Too many failed logins from your address, try again later');
    return undefined;
  }

  private async onAuth(
    auth: SMTPServerAuthentication,
    session: SMTPServerSession,
    callback: (error: Error | null | undefined, response?: { user: Submitter }) => void,
  ): Promise<void> {
    const refusal = this.addressRefusal(session);
    if (refusal) return callback(refusal);
    try {
      const key = auth.password ?? '';
      const holder = await this.apiKeys.authenticate(key);
      if (!holder) return callback(this.loginFailed(session, 'the password must be an API key of this service'));
      if (!holder.scopes.includes('send'))
        return callback(this.loginFailed(session, 'this API key lacks the send scope'));
      callback(null, { user: { key, userId: holder.userId } });
    } catch (err) {
      this.logger.error({ err }, 'Could not check an API key');
      callback(smtpReply(454, 'Temporary authentication failure, try again later'));
    }
  }

  /** 535, counted against the session and the client's address; the session's last allowed failure is 421 and the end of it. */
  private loginFailed(session: SMTPServerSession, why: string): SmtpReply {
    this.failedLogins.fail(countedAddress(session.remoteAddress));
    const state = this.listening.session(session.id);
    if (state && ++state.failedLogins >= this.limits.failedLoginsPerSession)
      return smtpReply(421, `Authentication failed: ${why}; too many failed logins, closing connection`);
    return smtpReply(535, `Authentication failed: ${why}`);
  }

  /** Every transaction checks the key again: one deleted since the login (docs/api.md#smtp-submission: within a second) sends nothing more. */
  private async onMailFrom(session: SMTPServerSession, callback: Callback): Promise<void> {
    try {
      const holder = await this.apiKeys.authenticate((session.user as Submitter).key);
      if (!holder?.scopes.includes('send'))
        return callback(smtpReply(530, 'Authentication required: the API key was deleted'));
      callback();
    } catch (err) {
      this.logger.error({ err }, 'Could not check an API key');
      callback(smtpReply(451, 'Temporary failure, try again later'));
    }
  }

  /**
   * DATA goes to disk as it comes, so that sessions hold no message in memory while they upload
   * or wait; a few messages at a time per process are then read back and taken in (docs/api.md#smtp-submission's
   * memory bound). A NUL byte anywhere refuses the message before anything is spent or stored:
   * no message may hold one, and one in a row would fail the group commit it shares with others.
   */
  private async onData(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ): Promise<void> {
    let spooled: SpooledMessage;
    try {
      spooled = await SpooledMessage.spool(stream);
    } catch {
      return callback(smtpReply(451, 'The message did not arrive whole'));
    }
    try {
      // Past SIZE, smtp-server answers 552 itself (rejectOversized).
      if (stream.sizeExceeded) return callback();
      if (spooled.hasNul)
        return callback(
          smtpReply(554, 'Message refused: it contains a NUL byte, which no message may hold (RFC 5322 section 2.1)'),
        );
      // A large message keeps the heap's growth bounded from its wait for a turn to its reply.
      const unbound = spooled.size > LARGE_BODY_BYTES ? boundHeapGrowth() : undefined;
      const release = await this.inMemory.take();
      try {
        // Cut off while it waited (the session limit, a client gone): nobody is told it was taken, so it is not.
        if (!this.listening.session(session.id))
          return callback(smtpReply(451, 'The session ended before the message was taken'));
        const queued = await this.takeIn(spooled, session);
        if (typeof queued === 'string') callback(null, asciiReplyText(queued));
        else callback(queued);
      } finally {
        release();
        unbound?.();
      }
    } catch (err) {
      this.logger.error({ err }, 'Could not read a spooled message');
      callback(smtpReply(451, 'Temporary failure, try again later'));
    } finally {
      await spooled.remove().catch((err: unknown) => this.logger.warn({ err }, 'Could not remove a spooled message'));
    }
  }

  /** The reply to a message read whole: its acceptance, or the refusal. */
  private async takeIn(mime: SpooledMessage, session: SMTPServerSession): Promise<string | SmtpReply> {
    const { userId } = session.user as Submitter;
    try {
      const message = await this.submit.execute(
        userId,
        mime,
        session.envelope.rcptTo.map((r) => r.address),
      );
      return `Queued as ${message.id}`;
    } catch (err) {
      const reply = replyToRefusal(err);
      if (!reply) this.logger.error({ err }, 'Could not take in a submitted message');
      return reply ?? smtpReply(451, 'Temporary failure, try again later');
    }
  }
}
