import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import type { DirectDeliveryConfig } from '../../platform/config/direct-delivery';
import { Clock } from '../../platform/clock';
import { Metrics } from '../../platform/metrics/metrics';
import { composeMessage, envelopeOf } from '../../messages';
import type { OutgoingMail } from '../../messages';
import { Mailer, MailDeliveryError, MailReceipt, Refusal, Route, Transaction } from '../mailer/mailer';
import { SEND_BUDGET_MS } from '../mailer/relay-transports';
import { classify, refusalsOf } from '../mailer/smtp.mailer';
import { closeHeld, HeldConnection, IdleConnections } from './idle-connections';
import { MtaStsPolicy, MtaStsSource } from './mta-sts-source';
import type { MxConnection } from './mx-connection';
import { MxConnector } from './mx-connector';
import { MxRouting } from './mx-routing';
import { byRecipientDomain, envelopeAddressOf } from './recipient-domains';
import { Site, SiteLimits } from './site-limits';
import { TlsBrokenHosts } from './tls-broken-hosts';

const logger = new Logger('DirectDelivery');

/**
 * The share of the send budget kept for the transaction itself once a lease or a host came late
 * (15 s of the 60 s budget): no wait for a lease, nor a host tried, past the rest.
 */
const TRANSACTION_SHARE = 0.25;

/**
 * How long a message waits for a connection of a full (not paused) site before its recipients
 * there are deferred. Short: each waiting message holds one of WORKER_CONCURRENCY slots, and a
 * busy site must not hold the mail to every other site (docs/delivery-and-deliverability.md#direct-delivery);
 * long enough for a connection of the site to come free between two of its messages.
 */
export const SITE_WAIT_MS = 5_000;

/** Injection token for the send budget (tests give a short one); SEND_BUDGET_MS when not provided. */
export const DIRECT_SEND_BUDGET_MS = Symbol('DIRECT_SEND_BUDGET_MS');

/** One domain's recipients and what the mail carries to all of them. */
interface DomainDelivery {
  domain: string;
  recipients: string[];
  from: string;
  message: Buffer;
  /** performance.now() past which the send is over: the connection destroyed, the recipients deferred. */
  deadline: number;
}

/** A domain's session while it runs: its connection once held, and whether the deadline ended it. */
interface Session {
  held?: HeldConnection;
  expired: boolean;
}

/**
 * SMTP_URL=direct (docs/delivery-and-deliverability.md#direct-delivery): each message straight to
 * its recipients' MX hosts, one transaction per recipient domain, each with its own fate. Every
 * connection holds a lease of its site (SiteLimits) and carries up to
 * DELIVERY_MESSAGES_PER_CONNECTION messages, RSET between them; an idle one is closed after a few
 * seconds. Every 4xx a site gives is reported to SiteLimits, which decides whether it says "too fast".
 */
@Injectable()
export class DirectMailer extends Mailer implements OnModuleDestroy {
  private readonly settings: DirectDeliveryConfig;
  private readonly routing: MxRouting;
  private readonly connector: MxConnector;
  private readonly idle = new IdleConnections();

  constructor(
    config: AppConfig,
    private readonly siteLimits: SiteLimits,
    private readonly mtaSts: MtaStsSource,
    private readonly metrics: Metrics,
    clock: Clock,
    @Optional() @Inject(DIRECT_SEND_BUDGET_MS) private readonly sendBudgetMs: number = SEND_BUDGET_MS,
  ) {
    super();
    this.settings = config.delivery.direct!;
    this.routing = new MxRouting(config.deliverability.dnsServers);
    this.connector = new MxConnector(this.settings, this.routing, new TlsBrokenHosts(clock));
  }

  async deliver(mail: OutgoingMail): Promise<Transaction[]> {
    const { from, to } = envelopeOf(mail);
    let message: Buffer;
    try {
      message = await composeMessage(mail);
    } catch (error) {
      // A mail that cannot be composed (signed) goes nowhere: every recipient's result, as a relay's would be.
      return [{ recipients: to, result: { error } }];
    }
    // One budget for every domain's transaction, as a relay's attempt has (relay-transports.ts).
    const deadline = performance.now() + this.sendBudgetMs;
    return Promise.all(
      [...byRecipientDomain(to)].map(async ([domain, recipients]): Promise<Transaction> => {
        try {
          return {
            recipients,
            result: { receipt: await this.deliverTo({ domain, recipients, from, message, deadline }) },
          };
        } catch (error) {
          return { recipients, result: { error } };
        }
      }),
    );
  }

  private get transactionMarginMs(): number {
    return this.sendBudgetMs * TRANSACTION_SHARE;
  }

  async onModuleDestroy(): Promise<void> {
    await this.idle.closeAll();
  }

  private async deliverTo(delivery: DomainDelivery): Promise<MailReceipt> {
    const { domain, recipients } = delivery;
    const route = await this.routing.route(domain);
    if ('failure' in route) {
      const { reply, permanent } = route.failure;
      this.metrics.directDeliveries.inc({ site: '', outcome: permanent ? 'failed' : 'deferred' });
      // A domain that takes no mail is each recipient's refusal, as a server's at RCPT TO would be (§9 suppresses it).
      if (permanent)
        throw new MailDeliveryError(
          reply,
          true,
          'RCPT TO',
          recipients.map((address) => ({ address, reply, permanent: true })),
        );
      throw new MailDeliveryError(reply, false);
    }
    const policy = await this.policyOf(domain);
    const enforce = policy.mode === 'enforce';
    const hosts = enforce ? route.hosts.filter((host) => this.mtaSts.matches(policy, host)) : route.hosts;
    if (hosts.length === 0) {
      this.metrics.directMtaSts.inc({ site: this.metrics.directSite(route.site), mode: 'enforce', result: 'failed' });
      this.metrics.directDeliveries.inc({ site: this.metrics.directSite(route.site), outcome: 'deferred' });
      throw new MailDeliveryError(
        `451 4.7.5 No MX host of ${domain} matches its MTA-STS policy (${route.hosts.join(', ')}), will try again`,
        false,
      );
    }
    return this.withinDeadline(route.site, delivery, async (session) => {
      const held = await this.connectionFor(route.site, domain, hosts, policy, delivery.deadline);
      // Opened after the deadline ended the send: nobody will use it.
      if (session.expired) {
        await closeHeld(held);
        throw new MailDeliveryError('opened past the send deadline', false);
      }
      session.held = held;
      return this.transact(held, delivery, session);
    });
  }

  /**
   * The domain's session, opening included, bounded by the send's deadline (SEND_BUDGET_MS, as a
   * relay's): past it the connection is destroyed and its lease released, and the recipients are
   * deferred, so that a slow MX never keeps the job past its lease (taken over, the mail sent twice).
   */
  private async withinDeadline(
    site: Site,
    delivery: DomainDelivery,
    work: (session: Session) => Promise<MailReceipt>,
  ): Promise<MailReceipt> {
    const session: Session = { expired: false };
    const working = work(session);
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          session.expired = true;
          const { held } = session;
          this.metrics.directDeliveries.inc({ site: this.metrics.directSite(site), outcome: 'deferred' });
          if (!held)
            return reject(
              new MailDeliveryError(
                `Timeout: no session with ${delivery.domain}'s mail servers within the send's ${this.sendBudgetMs} ms, will try again`,
                false,
              ),
            );
          held.connection.destroy();
          void closeHeld(held);
          // No reply: as a relay's timeout, the server may have taken the message.
          reject(
            new MailDeliveryError(
              `Timeout: no reply from ${held.connection.host} within the send's ${this.sendBudgetMs} ms; the message may have been accepted, will try again`,
              false,
              undefined,
              [],
              { host: held.connection.host, tls: held.connection.tls },
            ),
          );
        },
        Math.max(0, delivery.deadline - performance.now()),
      );
    });
    // What the work comes to after the deadline is no one's answer.
    working.catch(() => undefined);
    try {
      return await Promise.race([working, expiry]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** An idle connection of the site that fits the policy, else a new one under a new lease. */
  private async connectionFor(
    site: Site,
    domain: string,
    hosts: string[],
    policy: MtaStsPolicy,
    deadline: number,
  ): Promise<HeldConnection> {
    const enforce = policy.mode === 'enforce';
    const fits = (connection: MxConnection) => hosts.includes(connection.host) && (!enforce || connection.verified);
    // A site that said "too fast" gets no more mail over the connections left open: a new lease waits out its pause.
    if (!this.siteLimits.mayReuse(site)) await this.idle.closeSite(site);
    for (let reused = this.idle.take(site, fits); reused; reused = this.idle.take(site, fits))
      if (await this.reusable(reused)) return reused;
    // A lease, or a connection of the site put back meanwhile, whichever comes first.
    const waiting = this.idle.wait(site, fits);
    const stopAsking = new AbortController();
    const waitUntil = Math.min(performance.now() + SITE_WAIT_MS, deadline - this.transactionMarginMs);
    const leasing = this.siteLimits.acquire(site, waitUntil, stopAsking.signal);
    // A limits store that fails ends the wait too (its error is thrown below, unless a connection came).
    await Promise.race([waiting.next, leasing.catch(() => undefined)]);
    const handed = waiting.cancel();
    if (handed) {
      // Else the lease would be asked for until the deadline, and given back at once if granted.
      stopAsking.abort();
      leasing.then(
        (unneeded) => void unneeded?.release(),
        () => undefined,
      );
      if (await this.reusable(handed)) return handed;
      return this.connectionFor(site, domain, hosts, policy, deadline);
    }
    const lease = await leasing.catch((error: unknown) => {
      // The store's own words (SQL, driver errors) are for the log, not for the recipient's history.
      logger.warn({ site, err: error }, `No lease of ${site} could be asked for`);
      throw new MailDeliveryError(`451 4.3.0 Delivery to ${domain} could not be paced just now, will try again`, false);
    });
    if (!lease) {
      this.metrics.directDeliveries.inc({ site: this.metrics.directSite(site), outcome: 'deferred' });
      const why = this.siteLimits.mayReuse(site) ? 'is busy' : 'is paused: the site asked us to slow down';
      throw new MailDeliveryError(
        `451 4.4.5 Every connection to ${domain}'s mail servers (${site}) ${why}, will try again`,
        false,
      );
    }
    const opened = await this.connector
      .open(hosts, enforce, deadline - this.transactionMarginMs, {
        refusedOnOpening: (reply) => this.reportDeferral(site, reply),
        tlsBroken: (host, reason) =>
          logger.warn({ site, host, reason }, `TLS with ${host} failed (${reason}); sending in clear for a day`),
      })
      .catch(async (error: unknown) => {
        // Nothing is to throw here (a DNS look-up gone wrong, say); the lease must come back all the same.
        await lease.release();
        throw error;
      });
    if ('failure' in opened) {
      await lease.release();
      this.metrics.directDeliveries.inc({ site: this.metrics.directSite(site), outcome: 'deferred' });
      if (enforce)
        this.metrics.directMtaSts.inc({ site: this.metrics.directSite(site), mode: 'enforce', result: 'failed' });
      throw new MailDeliveryError(
        enforce
          ? `451 4.7.5 No MX host of ${domain} could be reached over TLS with a valid certificate as its MTA-STS policy requires (${opened.failure}), will try again`
          : `451 4.4.1 No MX host of ${domain} could be reached (${opened.failure}), will try again`,
        false,
      );
    }
    const { connection } = opened;
    this.metrics.directConnections.inc({ site: this.metrics.directSite(site), tls: connection.tls ? 'yes' : 'no' });
    if (policy.mode !== 'none') this.recordMtaSts(site, domain, policy, connection);
    return { site, connection, lease };
  }

  /** One transaction over the held connection; the connection kept for the next message when it may carry one. */
  private async transact(held: HeldConnection, delivery: DomainDelivery, session: Session): Promise<MailReceipt> {
    const { site, connection } = held;
    const route: Route = { host: connection.host, tls: connection.tls };
    // IDN domains go on the wire as A-labels; each refusal is told of the recipient as the message names it.
    const asGiven = new Map(delivery.recipients.map((address) => [envelopeAddressOf(address), address]));
    const ownAddresses = (refusals: Refusal[]) =>
      refusals.map((refusal) => ({ ...refusal, address: asGiven.get(refusal.address) ?? refusal.address }));
    try {
      const info = await connection.send(envelopeAddressOf(delivery.from), [...asGiven.keys()], delivery.message);
      const rejected = ownAddresses(refusalsOf(info.rejectedErrors));
      for (const refusal of rejected.filter((r) => !r.permanent)) this.reportDeferral(site, refusal.reply);
      this.metrics.directDeliveries.inc({ site: this.metrics.directSite(site), outcome: 'sent' });
      return { reply: String(info.response ?? ''), rejected, route };
    } catch (thrown) {
      // Ended by the deadline (withinDeadline counted it and answers for it).
      if (session.expired) throw thrown;
      const error = classify(thrown);
      for (const reply of temporaryReplies(thrown)) this.reportDeferral(site, reply);
      this.metrics.directDeliveries.inc({
        site: this.metrics.directSite(site),
        outcome: error.permanent ? 'failed' : 'deferred',
      });
      throw new MailDeliveryError(error.message, error.permanent, error.command, ownAddresses(error.refused), route);
    } finally {
      // Not put back after a "too fast" reply (a paused site): the next message asks for a lease, which waits out the pause.
      const reusable =
        connection.usable && connection.sent < this.settings.messagesPerConnection && this.siteLimits.mayReuse(site);
      if (reusable) this.idle.put(held);
      else await closeHeld(held);
    }
  }

  /**
   * Whether a connection kept open may carry the next message: not while its site is paused (a
   * "too fast" reply heard by any worker: the pause holds for open connections as for new ones; it
   * is closed, its lease released, and the message waits for a new lease), and only if the server
   * is still there.
   */
  private async reusable(held: HeldConnection): Promise<boolean> {
    const paused = await this.siteLimits.isPaused(held.site).catch((error: unknown) => {
      // A limits store that fails costs the check, never the delivery (as for reportDeferral).
      logger.warn({ site: held.site, err: error }, `Whether ${held.site} is paused could not be read`);
      return false;
    });
    if (!paused) return stillOpen(held);
    await closeHeld(held);
    return false;
  }

  /** A site's 4xx for its limits; a limits store that fails costs the report, never the delivery. */
  private reportDeferral(site: Site, reply: string): void {
    this.siteLimits
      .deferred(site, reply)
      .catch((error: unknown) =>
        logger.warn({ site, err: error }, `A 4xx of ${site} could not be reported to its limits`),
      );
  }

  private async policyOf(domain: string): Promise<MtaStsPolicy> {
    try {
      return await this.mtaSts.policyFor(domain);
    } catch (error) {
      // RFC 8461 §5: no policy to be had is delivery as without one.
      logger.warn({ domain, err: error }, `The MTA-STS policy of ${domain} could not be read`);
      return { mode: 'none', mx: [] };
    }
  }

  /** MTA-STS's outcome for a session: a host the policy names, over TLS with a certificate valid for it. Testing mode: recorded only. */
  private recordMtaSts(site: Site, domain: string, policy: MtaStsPolicy, connection: MxConnection): void {
    const valid = connection.verified && this.mtaSts.matches(policy, connection.host);
    this.metrics.directMtaSts.inc({
      site: this.metrics.directSite(site),
      mode: policy.mode,
      result: valid ? 'valid' : 'failed',
    });
    if (!valid)
      logger.warn(
        { site, domain, host: connection.host, tls: connection.tls },
        `MTA-STS (testing) of ${domain}: ${connection.host} ${connection.tls ? 'has no valid certificate for its name or is not in the policy' : 'took no TLS'}; delivered anyway`,
      );
  }
}

/** RSET on a connection that carried a message: false (and closed, its lease released) when the server dropped it meanwhile. */
async function stillOpen(held: HeldConnection): Promise<boolean> {
  try {
    await held.connection.reset();
    return true;
  } catch {
    await closeHeld(held);
    return false;
  }
}

/**
 * The 4xx replies in a failed send: those refusing recipients for now, and the transaction's own
 * unless it is the refusal of the last recipient again (every recipient refused: nodemailer's error
 * repeats its reply).
 */
function temporaryReplies(error: unknown): string[] {
  const { response, responseCode, command, rejectedErrors } = error as {
    response?: string;
    responseCode?: number;
    command?: string;
    rejectedErrors?: unknown[];
  };
  const refused = refusalsOf(rejectedErrors)
    .filter((r) => !r.permanent)
    .map((r) => r.reply);
  const temporary = typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500;
  const own = temporary && response && command !== 'RCPT TO' ? [response] : [];
  return [...own, ...refused];
}
