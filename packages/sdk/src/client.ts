import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { type Api, type CallOptions, type Schemas, unwrap, type Shape } from './request.js';
import { ApiKeys } from './resources/api-keys.js';
import { Attachments } from './resources/attachments.js';
import { AuditLog } from './resources/audit-log.js';
import { Domains } from './resources/domains.js';
import { Emails } from './resources/emails.js';
import { Inbound } from './resources/inbound.js';
import { Members } from './resources/members.js';
import { StatsResource } from './resources/stats.js';
import { Suppressions } from './resources/suppressions.js';
import { WebhookDeliveries } from './resources/webhook-deliveries.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { DEFAULT_RETRY, retryingFetch } from './retrying-fetch.js';

export interface MailroomOptions {
  /** Where the server is, e.g. `https://mail.example.com`. */
  baseUrl: string;
  /** An API key (`mr_…`). Give this or `token`. */
  apiKey?: string;
  /** A JWT the server accepts. Give this or `apiKey`. */
  token?: string;
  /** The fetch to use (a test's, one with a proxy); the global one otherwise. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Further attempts after a 429 (after its Retry-After), or after a 5xx or no answer for calls a
   * repeat cannot do twice; 0 turns retrying off. Default 2.
   */
  retries?: number;
  /** The longest wait before one retry, ms; a 429 asking for longer is thrown at once. Default 60000. */
  maxRetryDelayMs?: number;
  /**
   * `send` and `sendBatch` make an Idempotency-Key when the caller gives none, so that a send is
   * retried after a lost answer without being sent twice. Default true.
   */
  idempotencyKeys?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export interface Caller extends Shape<Schemas['CallerResponse']> {}

/** A client of one Mailroom server, as one caller. */
export class Mailroom {
  readonly emails: Emails;
  readonly attachments: Attachments;
  readonly domains: Domains;
  readonly apiKeys: ApiKeys;
  readonly suppressions: Suppressions;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhookDeliveries: WebhookDeliveries;
  readonly inbound: Inbound;
  readonly stats: StatsResource;
  readonly members: Members;
  readonly auditLog: AuditLog;
  private readonly api: Api;

  constructor(options: MailroomOptions) {
    const credential = options.apiKey ?? options.token;
    if (!credential) throw new TypeError('Mailroom needs an apiKey or a token.');
    if (!options.baseUrl) throw new TypeError('Mailroom needs the baseUrl of the server.');
    // Looked up at each call, so that a fetch replaced after construction (a test's, a polyfill's) is the one used.
    const base = (request: Request) => (options.fetch ?? globalThis.fetch)(request);
    this.api = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: { ...options.headers, Authorization: `Bearer ${credential}` },
      fetch: retryingFetch(base, {
        retries: options.retries ?? DEFAULT_RETRY.retries,
        maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_RETRY.maxDelayMs,
      }),
    });
    const newKey = options.idempotencyKeys === false ? () => undefined : () => globalThis.crypto.randomUUID();
    this.emails = new Emails(this.api, newKey);
    this.attachments = new Attachments(this.api);
    this.domains = new Domains(this.api);
    this.apiKeys = new ApiKeys(this.api);
    this.suppressions = new Suppressions(this.api);
    this.webhookEndpoints = new WebhookEndpoints(this.api);
    this.webhookDeliveries = new WebhookDeliveries(this.api);
    this.inbound = new Inbound(this.api);
    this.stats = new StatsResource(this.api);
    this.members = new Members(this.api);
    this.auditLog = new AuditLog(this.api);
  }

  /** Who the credential is: the account, and the member or key it acts as. */
  me(options: CallOptions = {}): Promise<Caller> {
    return unwrap(this.api.GET('/user/me', { signal: options.signal }));
  }
}
