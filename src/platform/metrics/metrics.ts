import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DeliveryQueue } from '../queue/delivery-queue';
import { WebhookQueue } from '../queue/webhook-queue';

/** How many distinct sites the direct counters name before the rest are counted as `other`. */
export const MAX_DIRECT_SITE_LABELS = 100;

/** The Prometheus metrics of one process, in a registry of its own (GET /metrics). */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly messagesAccepted = new Counter({
    name: 'mailroom_messages_accepted_total',
    help: 'Messages accepted by POST /sender/send',
    registers: [this.registry],
  });

  readonly deliveries = new Counter({
    name: 'mailroom_deliveries_total',
    help: 'Delivery attempts by outcome (sent, deferred, failed, suppressed, skipped)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly deliveryLatency = new Histogram({
    name: 'mailroom_delivery_latency_seconds',
    help: 'From acceptance to the SMTP server accepting the message',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 7200],
    registers: [this.registry],
  });

  readonly deliveryRecordTime = new Histogram({
    name: 'mailroom_delivery_record_seconds',
    help: "From the mail server's reply to the commit of the outcome: a worker that dies within it sends the message again",
    buckets: [0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  /** Per owner, so that one user's bad list shows; reports, not messages (a message may bounce for several recipients). */
  readonly bounces = new Counter({
    name: 'mailroom_bounces_total',
    help: 'Bounce reports applied, by owner and kind (hard: the address was suppressed; soft: kept)',
    labelNames: ['user_id', 'kind'] as const,
    registers: [this.registry],
  });

  readonly complaints = new Counter({
    name: 'mailroom_complaints_total',
    help: 'Complaints (RFC 5965 feedback reports) applied, by owner and feedback type (abuse, fraud, opt-out, opt-out-list)',
    labelNames: ['user_id', 'kind'] as const,
    registers: [this.registry],
  });

  /** A submitted message's MIME parsed to read it back (docs/api.md#reading-back): once per message, later reads use what it found. */
  readonly readBackParses = new Counter({
    name: 'mailroom_read_back_parses_total',
    help: 'Submitted MIME parsed whole to read a message back (its first read; later ones reuse what it found)',
    registers: [this.registry],
  });

  // Direct delivery (SMTP_URL=direct), per destination site: the set of MX hosts a domain uses
  // (docs/delivery-and-deliverability.md#direct-delivery). The `site` label is directSite(site):
  // a handful of big providers, then a long tail, so it is bounded.
  readonly directConnections = new Counter({
    name: 'mailroom_direct_connections_total',
    help: 'Direct delivery: SMTP sessions set up with a site, by whether TLS protected them (tls: yes, no)',
    labelNames: ['site', 'tls'] as const,
    registers: [this.registry],
  });

  readonly directDeliveries = new Counter({
    name: 'mailroom_direct_deliveries_total',
    help: "Direct delivery: one domain's transactions by site and outcome (sent, deferred, failed; sent includes some recipients refused)",
    labelNames: ['site', 'outcome'] as const,
    registers: [this.registry],
  });

  /** So that the provider slowing us down shows. */
  readonly directRateLimitDeferrals = new Counter({
    name: 'mailroom_direct_rate_limit_deferrals_total',
    help: "Direct delivery: replies from a site saying the sender is too fast (a 421 or a rate-limit wording), each slowing that site's pace",
    labelNames: ['site'] as const,
    registers: [this.registry],
  });

  readonly directMtaSts = new Counter({
    name: 'mailroom_direct_mta_sts_total',
    help: "Direct delivery: MTA-STS outcomes by site, the policy's mode (enforce, testing) and result (valid: a matching host with a valid certificate; failed)",
    labelNames: ['site', 'mode', 'result'] as const,
    registers: [this.registry],
  });

  /** SPEC §8, docs/scaling.md#read-replicas: where each API read ran, and why there (Reads). */
  readonly databaseReads = new Counter({
    name: 'mailroom_database_reads_total',
    help: 'Reads of lists, stats, read-back and inbound mail, by where they ran (target) and why (reason)',
    labelNames: ['target', 'reason'],
    registers: [this.registry],
  });

  /** The sites named in the direct counters' `site` label so far (at most MAX_DIRECT_SITE_LABELS). */
  private readonly directSites = new Set<string>();

  constructor(deliveries: DeliveryQueue, webhooks: WebhookQueue) {
    new Gauge({
      name: 'mailroom_queue_waiting_jobs',
      help: 'Delivery jobs waiting to be fetched',
      registers: [this.registry],
      async collect() {
        this.set(await deliveries.size());
      },
    });
    new Gauge({
      name: 'mailroom_webhook_queue_waiting_jobs',
      help: 'Webhook events waiting to be posted (retries included)',
      registers: [this.registry],
      async collect() {
        this.set(await webhooks.size());
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * The `site` label of the direct counters: the site itself for the first MAX_DIRECT_SITE_LABELS
   * distinct sites this process sees, `other` after, so that mail to an ever longer tail of sites
   * cannot grow the registry (each label value is a series kept for the process's life). The big
   * providers come first in any real traffic. An empty site (a routing failure) stays empty.
   */
  directSite(site: string): string {
    if (site === '' || this.directSites.has(site)) return site;
    if (this.directSites.size >= MAX_DIRECT_SITE_LABELS) return 'other';
    this.directSites.add(site);
    return site;
  }
}
