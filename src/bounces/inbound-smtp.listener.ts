import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SMTPServer, SMTPServerAddress, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { addressKey } from '../common/addresses';
import { AppConfig } from '../config/app-config';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { ApplyReportsUseCase, ReportBeforeAcceptanceError } from './apply-reports.use-case';
import type { DeliveryReport } from './delivery-report';
import { InboundLimits } from './inbound-limits';
import { InboundRoute, InboundRoutes } from './inbound-routes';
import { readReports } from './report-reader';
import { listenSmtp, sessionDeadline, smtpPortOf } from '../common/smtp-listening';

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
  timer: NodeJS.Timeout;
}

const reply = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The inbound SMTP listener of SPEC §9 (INBOUND_SMTP_PORT, worker processes): the MX of
 * BOUNCE_DOMAIN. It takes mail only for the VERP addresses of stored messages, the unsubscribe
 * addresses and postmaster@/abuse@, refusing every other recipient at RCPT (550) so that nothing
 * unwanted reaches DATA. No AUTH (nobody logs in here) and no STARTTLS (there is no certificate to
 * offer; senders fall back to plain SMTP, as they do for any MX without TLS).
 */
@Injectable()
export class InboundSmtpListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InboundSmtp');
  private readonly sessions = new Map<string, SessionState>();
  private server?: SMTPServer;

  constructor(
    private readonly config: AppConfig,
    private readonly routes: InboundRoutes,
    private readonly reports: ApplyReportsUseCase,
    private readonly unsubscribe: UnsubscribeService,
    private readonly limits: InboundLimits,
  ) {}

  /** The port it listens on (the one chosen when INBOUND_SMTP_PORT is 0); undefined when off. */
  get port(): number | undefined {
    return smtpPortOf(this.server);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { inboundSmtpPort, bounceDomain } = this.config.deliverability;
    if (this.config.role === 'api' || inboundSmtpPort === undefined) return;
    if (!bounceDomain) {
      this.logger.warn(
        'INBOUND_SMTP_PORT is set but BOUNCE_DOMAIN is not: there is no address to take mail for, so the listener stays off',
      );
      return;
    }
    this.server = this.createServer();
    await listenSmtp(this.server, inboundSmtpPort, this.config.host, (err) =>
      this.logger.warn({ err }, 'Inbound SMTP connection error'),
    );
    this.logger.log(`Inbound SMTP listener for ${bounceDomain} on port ${this.port}`);
  }

  /** Stops accepting, gives sessions in flight InboundLimits.closeMs to finish, then closes them. */
  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const state of this.sessions.values()) clearTimeout(state.timer);
    this.sessions.clear();
  }

  private createServer(): SMTPServer {
    const limits = this.limits;
    return new SMTPServer({
      size: limits.messageBytes,
      rejectOversized: true,
      maxClients: limits.clients,
      socketTimeout: limits.idleMs,
      closeTimeout: limits.closeMs,
      maxRecipients: limits.recipientsPerMessage,
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      disableReverseLookup: true,
      logger: false,
      onConnect: (session, callback) => this.onConnect(session, callback),
      onClose: (session) => this.forget(session),
      onMailFrom: (_address, session, callback) => this.onMailFrom(session, callback),
      onRcptTo: (address, session, callback) => void this.onRcptTo(address, session, callback),
      onData: (stream, session, callback) => void this.onData(stream, session, callback),
    });
  }

  private onConnect(session: SMTPServerSession, callback: Callback): void {
    const timer = sessionDeadline(() => this.server, session.id, this.limits.sessionMs);
    this.sessions.set(session.id, { routes: new Map(), refused: 0, transactions: 0, timer });
    callback();
  }

  private forget(session: SMTPServerSession): void {
    clearTimeout(this.sessions.get(session.id)?.timer);
    this.sessions.delete(session.id);
  }

  private onMailFrom(session: SMTPServerSession, callback: Callback): void {
    const state = this.sessions.get(session.id)!;
    state.routes = new Map();
    if (++state.transactions > this.limits.transactions)
      return callback(reply(421, 'Error: too many transactions, closing connection'));
    callback();
  }

  private async onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: Callback): Promise<void> {
    const state = this.sessions.get(session.id)!;
    let route: InboundRoute | undefined;
    try {
      route = await this.routes.route(address.address);
    } catch (err) {
      this.logger.warn({ err }, 'Could not look up an inbound recipient');
      return callback(reply(451, 'Error: temporary failure, try again later'));
    }
    if (!route) {
      if (++state.refused >= this.limits.refusedRecipients)
        return callback(reply(421, 'Error: too many unknown recipients, closing connection'));
      return callback(reply(550, `5.1.1 <${address.address}>: no such mailbox here`));
    }
    state.routes.set(addressKey(address.address), route);
    callback();
  }

  private async onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: Callback): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) if (!stream.sizeExceeded) chunks.push(chunk as Buffer);
    } catch {
      return callback(reply(451, 'Error: the message did not arrive whole'));
    }
    // Past SIZE, smtp-server answers 552 itself (rejectOversized) whatever is said here.
    if (stream.sizeExceeded) return callback();
    const raw = Buffer.concat(chunks);
    const routes = [...(this.sessions.get(session.id)?.routes.values() ?? [])];
    try {
      // Read once, whatever the number of VERP addresses it went to.
      const reports = routes.some((route) => route.kind !== 'unsubscribe') ? await readReports(raw) : [];
      for (const route of routes) await this.deliver(raw, reports, route, session);
      callback();
    } catch (err) {
      // Nothing was committed for the failing route; the sender tries again, and reports already applied stay applied once.
      if (err instanceof ReportBeforeAcceptanceError)
        this.logger.log({ err }, 'Report about a message not sent yet: the sender is asked to retry');
      else this.logger.error({ err }, 'Could not apply an inbound report');
      callback(reply(451, 'Error: temporary failure, try again later'));
    }
  }

  private async deliver(
    raw: Buffer,
    reports: DeliveryReport[],
    route: InboundRoute,
    session: SMTPServerSession,
  ): Promise<void> {
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
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
