import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { SMTPServerAddress, SMTPServerDataStream, SMTPServerOptions, SMTPServerSession } from 'smtp-server';
import { addressKey } from '../platform/mail/addresses';
import { boundHeapGrowth } from '../platform/heap-growth';
import { SpooledMessage } from '../platform/smtp/spooled-message';
import { AppConfig } from '../platform/config/app-config';
import { InboundMailLimits } from './inbound-mail-limits';
import type { InboundRecipient } from './inbound-mailboxes';
import { InboundQuota } from './inbound-quota';
import { ReceiveInboundMailUseCase } from './receive-inbound-mail.use-case';
import { UnsubscribeService } from '../deliverability';
import { ApplyReportsUseCase, ReportBeforeAcceptanceError } from '../deliverability';
import type { DeliveryReport } from '../deliverability';
import { InboundLimits } from './inbound-limits';
import { InboundRoute, InboundRoutes } from './inbound-routes';
import { readReports } from '../deliverability';
import { SmtpListening } from '../platform/smtp/smtp-listening';
import { smtpReply } from '../platform/smtp/smtp-reply';

type Callback = (error?: Error | null) => void;

/** What a session has spent of its limits, and where its accepted recipients go. */
interface SessionState {
  /**
   * By lower-cased address, as smtp-server counts recipients: a repeated RCPT replaces the
   * earlier one there (and passes its maxRecipients check), so here it must not add a route.
   */
  routes: Map<string, InboundRoute>;
  refused: number;
  transactions: number;
}

/**
 * The inbound SMTP listener of docs/delivery-and-deliverability.md and docs/inbound.md (INBOUND_SMTP_PORT, worker processes): the MX of
 * BOUNCE_DOMAIN and of users' receiving domains. It takes mail only for the VERP addresses of
 * stored messages, the unsubscribe addresses and postmaster@/abuse@ of BOUNCE_DOMAIN, and any
 * address at a receiving domain, refusing every other recipient at RCPT (550) so that nothing
 * unwanted reaches DATA and nothing is relayed. No AUTH (nobody logs in here); STARTTLS when
 * INBOUND_TLS_CERT/_KEY are set (without, senders fall back to plain SMTP, as they do for any MX
 * without TLS). DATA goes to disk as it arrives, so a session holds no mail in memory.
 */
@Injectable()
export class InboundSmtpListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InboundSmtp');
  private readonly listening: SmtpListening<SessionState>;

  constructor(
    private readonly config: AppConfig,
    private readonly routes: InboundRoutes,
    private readonly reports: ApplyReportsUseCase,
    private readonly unsubscribe: UnsubscribeService,
    private readonly limits: InboundLimits,
    private readonly mailLimits: InboundMailLimits,
    private readonly receive: ReceiveInboundMailUseCase,
    private readonly quota: InboundQuota,
  ) {
    this.listening = new SmtpListening(limits);
  }

  /** The port it listens on (the one chosen when INBOUND_SMTP_PORT is 0); undefined when off. */
  get port(): number | undefined {
    return this.listening.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { inboundSmtpPort, bounceDomain } = this.config.deliverability;
    if (this.config.role === 'api' || inboundSmtpPort === undefined) return;
    await this.listening.listen(this.options(), () => ({ routes: new Map(), refused: 0, transactions: 0 }), {
      port: inboundSmtpPort,
      host: this.config.host,
      onClientError: (err) => this.logger.warn({ err }, 'Inbound SMTP connection error'),
    });
    const domains = bounceDomain ? `${bounceDomain} and receiving domains` : 'receiving domains';
    this.logger.log(`Inbound SMTP listener for ${domains} on port ${this.port}`);
  }

  /** Stops accepting, gives sessions in flight InboundLimits.closeMs to finish, then closes them. */
  async onModuleDestroy(): Promise<void> {
    await this.listening.close();
  }

  private options(): SMTPServerOptions {
    const limits = this.limits;
    const tls = this.config.inbound.tls;
    return {
      // SIZE is the largest mail taken, for a receiving domain; BOUNCE_DOMAIN's own limit is checked per route.
      size: this.config.inbound.maxBytes,
      rejectOversized: true,
      socketTimeout: limits.idleMs,
      closeTimeout: limits.closeMs,
      maxRecipients: this.mailLimits.recipients,
      disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
      ...(tls && { key: tls.key, cert: tls.cert }),
      authOptional: true,
      onMailFrom: (_address, session, callback) => this.onMailFrom(session, callback),
      onRcptTo: (address, session, callback) => void this.onRcptTo(address, session, callback),
      onData: (stream, session, callback) => void this.onData(stream, session, callback),
    };
  }

  private onMailFrom(session: SMTPServerSession, callback: Callback): void {
    const state = this.listening.session(session.id)!;
    state.routes = new Map();
    if (++state.transactions > this.limits.transactions)
      return callback(smtpReply(421, 'Error: too many transactions, closing connection'));
    callback();
  }

  private async onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: Callback): Promise<void> {
    const state = this.listening.session(session.id)!;
    let route: InboundRoute | undefined;
    try {
      route = await this.routes.route(address.address);
    } catch (err) {
      this.logger.warn({ err }, 'Could not look up an inbound recipient');
      return callback(smtpReply(451, 'Error: temporary failure, try again later'));
    }
    if (!route) {
      if (++state.refused >= this.limits.refusedRecipients)
        return callback(smtpReply(421, 'Error: too many unknown recipients, closing connection'));
      // Never the client's address back: whatever it sent, the reply says nothing of it.
      return callback(smtpReply(550, '5.1.1 No such mailbox here'));
    }
    const key = addressKey(address.address);
    if (route.kind === 'mailbox') {
      let overQuota: string | undefined;
      try {
        overQuota = await this.quota.refusal(route.recipient.userId, address.address);
      } catch (err) {
        this.logger.warn({ err }, 'Could not read an inbound quota');
        return callback(smtpReply(451, 'Error: temporary failure, try again later'));
      }
      if (overQuota) return callback(smtpReply(452, overQuota));
    } else {
      // BOUNCE_DOMAIN's addresses keep their own limits (docs/inbound.md: their behaviour unchanged).
      const others = [...state.routes].filter(([other, r]) => other !== key && r.kind !== 'mailbox').length;
      if (others >= this.limits.recipientsPerMessage)
        return callback(smtpReply(452, '4.5.3 Error: too many recipients'));
      const declared = Number(
        session.envelope.mailFrom && session.envelope.mailFrom.args && session.envelope.mailFrom.args.SIZE,
      );
      if (declared > this.limits.messageBytes)
        return callback(smtpReply(552, '5.3.4 Error: message exceeds fixed maximum message size for this address'));
    }
    state.routes.set(key, route);
    callback();
  }

  private async onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: Callback): Promise<void> {
    // Whatever its size, from its first byte to the reply: a flood of large mail keeps the heap's
    // growth bounded while it arrives and is read (docs/performance.md#memory-and-large-bodies).
    // A client trickling its DATA holds the bound as long: that costs CPU, never memory.
    const unbound = boundHeapGrowth();
    let mail: SpooledMessage;
    try {
      mail = await SpooledMessage.spool(stream, { keepNul: true });
    } catch {
      unbound();
      return callback(smtpReply(451, 'Error: the message did not arrive whole'));
    }
    try {
      // Past SIZE, smtp-server answers 552 itself (rejectOversized) whatever is said here.
      if (stream.sizeExceeded) return callback();
      const routes = [...(this.listening.session(session.id)?.routes.values() ?? [])];
      const mailboxes = routes.flatMap((route) => (route.kind === 'mailbox' ? [route.recipient] : []));
      const ours = routes.filter((route) => route.kind !== 'mailbox');
      if (mailboxes.length === 0 && mail.size > this.limits.messageBytes)
        return callback(smtpReply(552, '5.3.4 Error: message exceeds fixed maximum message size'));
      await this.applyReports(mail, ours, session);
      const refusal = mailboxes.length > 0 ? await this.storeMail(mail, mailboxes, session) : undefined;
      callback(refusal && smtpReply(refusal.code, refusal.message));
    } catch (err) {
      // Nothing was committed for the failing route; the sender tries again, and reports already applied stay applied once.
      if (err instanceof ReportBeforeAcceptanceError)
        this.logger.log({ err }, 'Report about a message not sent yet: the sender is asked to retry');
      else this.logger.error({ err }, 'Could not apply an inbound report or store an inbound mail');
      callback(smtpReply(451, 'Error: temporary failure, try again later'));
    } finally {
      unbound();
      await mail.remove().catch((err: unknown) => this.logger.warn({ err }, 'Could not remove a spooled mail'));
    }
  }

  /**
   * BOUNCE_DOMAIN's routes. A mail over their 1 MiB that also went to a receiving domain is not
   * read as a report (it would have been refused whole before receiving domains existed).
   */
  private async applyReports(mail: SpooledMessage, routes: InboundRoute[], session: SMTPServerSession): Promise<void> {
    if (routes.length === 0) return;
    if (mail.size > this.limits.messageBytes) {
      this.logger.log(
        { bytes: mail.size },
        'Mail for BOUNCE_DOMAIN over its size limit, stored for receiving domains only',
      );
      return;
    }
    const raw = await mail.read();
    // Read once, whatever the number of VERP addresses it went to.
    const reports = routes.some((route) => route.kind !== 'unsubscribe') ? await readReports(raw) : [];
    for (const route of routes) await this.deliver(raw, reports, route, session);
  }

  /** Hands the mail to src/inbound, which answers once every user's copy is stored (or says why not). */
  private storeMail(mail: SpooledMessage, recipients: InboundRecipient[], session: SMTPServerSession) {
    return this.receive.execute(
      mail,
      {
        ip: session.remoteAddress,
        helo: session.hostNameAppearsAs,
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      },
      recipients,
    );
  }

  private async deliver(
    raw: Buffer,
    reports: DeliveryReport[],
    route: InboundRoute,
    session: SMTPServerSession,
  ): Promise<void> {
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    if (route.kind === 'mailbox') return;
    if (route.kind === 'report') return this.reports.execute(reports, route.target, route.recipient);
    if (route.kind === 'unsubscribe') {
      // The token passed at RCPT; a message deleted since leaves nothing to suppress.
      await this.unsubscribe.suppress(route.token);
      return;
    }
    // Feedback loops (Yahoo's, Microsoft's JMRP) send complaints to a registered address such as
    // abuse@, not to the envelope sender: the VERP address they quote as the original's envelope
    // sender names the recipient, as unforgeably as the envelope would have.
    const quoted = reports.find((report) => report.kind === 'complaint' && report.originalEnvelopeSender);
    const named = quoted && (await this.routes.route(quoted.originalEnvelopeSender!));
    if (named?.kind === 'report') return this.reports.execute(reports, named.target, named.recipient);
    // Nothing to apply: the mail is logged for whoever reads the role mailboxes' logs.
    this.logger.log(
      { mailbox: route.mailbox, from, bytes: raw.length, remoteAddress: session.remoteAddress },
      `Mail for ${route.mailbox}@ received and logged`,
    );
  }
}
