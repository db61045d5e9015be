import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Environment } from './environment';
import { readOrCreateSecret } from './secret-file';
import { DirectConfigError, DirectDeliveryConfig, parseSourceAddresses, readCaFile } from './direct-delivery';
import { SmtpRelay, smtpRelays } from './smtp-relays';
import { TrustedProxies } from './trusted-proxies';

export type Role = 'api' | 'worker' | 'all';
/** How DATABASE_URL's connections are pooled before the server (docs/configuration.md). */
export type DatabasePoolMode = 'session' | 'transaction';

/** How bearer tokens are verified: a shared HS256 key, or an identity provider's published keys. */
export type TokenVerification =
  | { kind: 'secret'; secret: string; algorithms: ['HS256'] }
  | { kind: 'jwks'; jwksUrl: string; algorithms: ['RS256', 'ES256'] };

export class ConfigurationError extends Error {}

/** The provider members may sign in with, and this service's client there. */
export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The typed configuration of one process, built once from the environment and injected where
 * needed (by class: `constructor(private readonly config: AppConfig)`).
 */
export class AppConfig {
  readonly production!: boolean;
  readonly port!: number;
  readonly host!: string;
  readonly role!: Role;
  readonly dataDir!: string;
  /** Unset: the embedded PostgreSQL server is started (docs/configuration.md). */
  readonly databaseUrl!: string | undefined;
  /** DATABASE_POOL_SIZE: the connections each of this process's pools may hold. */
  readonly databasePoolSize!: number;
  /** DATABASE_POOL_MODE: `transaction` behind a pooler that hands out a server connection per transaction. */
  readonly databasePoolMode!: DatabasePoolMode;
  /** DATABASE_READ_URL: a streaming replica the API's reads may go to (docs/scaling.md#read-replicas). */
  readonly databaseReadUrl!: string | undefined;
  /** DATABASE_READ_MAX_LAG_MS: past this replay lag, reads go to the primary. */
  readonly databaseReadMaxLagMs!: number;
  readonly logLevel!: string;
  readonly auth!: { verification: TokenVerification; issuer?: string; audience?: string };
  /** TRUST_PROXY: whose X-Forwarded-For and X-Forwarded-Proto are believed (clientAddress). */
  readonly trustedProxies!: TrustedProxies;
  readonly limits!: {
    maxRecipients: number;
    maxAttachmentBytes: number;
    requestsPerMinute: number;
    /** A JSON body or upload not read whole this long after its reading began: 408 (BodyLimit). */
    bodyReadMs: number;
  };
  readonly webhooks!: {
    /** The master key every user's signing secret is derived from. */
    signingKey: string;
    allowPrivateNetworks: boolean;
    timeoutMs: number;
    /** Seconds before each retry after the first, immediate attempt. */
    retryDelays: number[];
    /** An endpoint failing for this long (and at least 5 attempts) is disabled (docs/delivery-and-deliverability.md#webhooks). */
    disableAfterSeconds: number;
  };
  readonly delivery!: {
    /** SMTP_URL as given. Unset: the outbox transport writes `.eml` files to DATA_DIR/outbox. */
    smtpUrl: string | undefined;
    /** SMTP_URL's relays, in the order they are tried; empty when it is unset. */
    relays: SmtpRelay[];
    /** Seconds to wait before each retry after a temporary failure; its length is the number of retries. */
    retryDelays: number[];
    concurrency: number;
    leaseSeconds: number;
    /**
     * Direct delivery's simultaneous connections per destination site: every site's, and those of
     * sites whose MX hosts end in a suffix (docs/delivery-and-deliverability.md#direct-delivery).
     */
    siteConnections: { perSite: number; byHostSuffix: Record<string, number> };
    /** SMTP_URL=direct: delivery straight to MX hosts (docs/delivery-and-deliverability.md#direct-delivery); else undefined. */
    direct?: DirectDeliveryConfig;
  };
  /** Whole UTC days a message is kept past the day it was sent; undefined: forever (MessageRetention). */
  readonly retentionDays!: number | undefined;
  /** docs/delivery-and-deliverability.md: signing domains, the bounce and complaint loop, one-click unsubscribe. */
  readonly deliverability!: {
    /** Where recipients reach the service (unsubscribe links), without a trailing slash. */
    publicUrl: string;
    /** Unset: the envelope sender is the From address and no bounce is tracked. */
    bounceDomain: string | undefined;
    /** Unset: no inbound SMTP listener. */
    inboundSmtpPort: number | undefined;
    /** `host` or `host:port` resolvers for domain verification; empty: the system's. */
    dnsServers: string[];
    /** The master key that DKIM private keys are encrypted with and recipient tokens are signed with. */
    encryptionKey: string;
  };

  /** docs/inbound.md: mail received for users' receiving domains. */
  readonly inbound!: {
    /** The host receiving domains' MX records name. */
    mxHost: string;
    /** Largest mail for a receiving domain (SIZE). */
    maxBytes: number;
    /**
     * Bytes of mail one user may receive in a rolling 24 hours; past it, 452 4.2.2 at RCPT and DATA.
     * Default 1 GiB: a hundred of the largest mails or some 10,000 ordinary ones a day, far above a
     * support desk's day, while one sender filling a user's storage (37 GB/h, issue 33) stops
     * within minutes; with MESSAGE_RETENTION_DAYS it bounds what one user stores.
     */
    dailyQuotaBytes: number;
    /** PEM contents; unset: no STARTTLS on the inbound listener. */
    tls: { cert: Buffer; key: Buffer } | undefined;
  };

  /** docs/api.md#smtp-submission: the SMTP submission server of API processes. */
  readonly submission!: {
    /** Unset: no submission server. */
    smtpPort: number | undefined;
    /** PEM contents; unset: no STARTTLS. */
    tls: { cert: Buffer; key: Buffer } | undefined;
    /** AUTH without TLS (local development and tests only). */
    allowInsecureAuth: boolean;
  };

  /** docs/teams.md: members' console sessions and the service's own mail. */
  readonly teams!: {
    /** The From of invitations, a mailbox (`Name <address>`). */
    systemMailFrom: string;
    sessionIdleMinutes: number;
    sessionMaxHours: number;
    /** Sign-in with an OpenID Connect provider (docs/teams.md#signing-in-with-oidc); unset: off. */
    oidc?: OidcClientConfig;
  };

  constructor(values: AppConfig) {
    Object.assign(this, values);
  }

  /** The configuration of this process: `.env` (when present) under the real environment. */
  static load(): AppConfig {
    // Node's own reader; variables already set in the environment win over the file.
    if (existsSync('.env')) process.loadEnvFile('.env');
    return AppConfig.fromEnvironment(process.env);
  }

  /** Validates the variables and fills the embedded defaults. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const vars = plainToInstance(Environment, blankToUndefined(env), { excludeExtraneousValues: false });
    const errors = validateSync(vars, { forbidUnknownValues: false });
    if (errors.length > 0) {
      const lines = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
      throw new ConfigurationError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
    }
    const production = vars.NODE_ENV === 'production';
    const dataDir = resolve(vars.DATA_DIR ?? './data');
    return new AppConfig({
      production,
      port: vars.PORT ?? 3000,
      host: vars.HOST ?? '0.0.0.0',
      role: (vars.ROLE ?? 'all') as Role,
      dataDir,
      databaseUrl: vars.DATABASE_URL,
      databasePoolSize: vars.DATABASE_POOL_SIZE ?? 20,
      databasePoolMode: (vars.DATABASE_POOL_MODE ?? 'session') as DatabasePoolMode,
      databaseReadUrl: vars.DATABASE_READ_URL,
      databaseReadMaxLagMs: vars.DATABASE_READ_MAX_LAG_MS ?? 1000,
      logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === 'test' ? 'silent' : 'info'),
      auth: {
        verification: tokenVerification(vars, production, dataDir),
        issuer: vars.JWT_ISSUER,
        audience: vars.JWT_AUDIENCE,
      },
      trustedProxies: trustedProxies(vars.TRUST_PROXY),
      delivery: {
        smtpUrl: vars.SMTP_URL?.join(','),
        relays: isDirect(vars.SMTP_URL) ? [] : relaysOf(vars.SMTP_URL ?? []),
        retryDelays: (vars.DELIVERY_RETRY_DELAYS ?? '30,120,600,1800,3600,7200,14400').split(',').map(Number),
        concurrency: vars.WORKER_CONCURRENCY ?? 8,
        leaseSeconds: vars.DELIVERY_LEASE_SECONDS ?? 120,
        siteConnections: siteConnections(
          vars.DELIVERY_SITE_CONNECTIONS ?? '5,google.com=3,outlook.com=3,yahoodns.net=3',
        ),
        direct: directDelivery(vars),
      },
      webhooks: {
        // Read (or created) when first needed, so that merely parsing configuration writes nothing.
        get signingKey() {
          return (vars.WEBHOOK_SIGNING_KEY ??= readOrCreateSecret(dataDir, 'webhook-signing-key'));
        },
        allowPrivateNetworks: vars.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
        timeoutMs: vars.WEBHOOK_TIMEOUT_MS ?? 10_000,
        retryDelays: (vars.WEBHOOK_RETRY_DELAYS ?? '5,300,1800,7200,18000,36000,36000').split(',').map(Number),
        disableAfterSeconds: vars.WEBHOOK_DISABLE_AFTER_SECONDS ?? 432_000,
      },
      deliverability: {
        publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT ?? 3000}`).replace(/\/+$/, ''),
        bounceDomain: vars.BOUNCE_DOMAIN?.toLowerCase(),
        inboundSmtpPort: vars.INBOUND_SMTP_PORT,
        dnsServers: vars.DNS_SERVERS?.split(',') ?? [],
        // Read (or created) when first needed, as the webhook key is.
        get encryptionKey() {
          return (vars.DATA_ENCRYPTION_KEY ??= readOrCreateSecret(dataDir, 'data-encryption-key'));
        },
      },
      retentionDays: vars.MESSAGE_RETENTION_DAYS,
      submission: submission(vars),
      inbound: {
        mxHost: (vars.INBOUND_MX_HOST ?? new URL(vars.PUBLIC_URL ?? 'http://localhost').hostname).toLowerCase(),
        maxBytes: vars.INBOUND_MAX_BYTES ?? 10 * 1024 * 1024,
        dailyQuotaBytes: vars.INBOUND_DAILY_QUOTA_BYTES ?? 1024 * 1024 * 1024,
        tls: tlsPair(vars.INBOUND_TLS_CERT, vars.INBOUND_TLS_KEY, 'INBOUND_TLS'),
      },
      teams: {
        systemMailFrom:
          vars.SYSTEM_MAIL_FROM ?? `Mailroom <no-reply@${new URL(vars.PUBLIC_URL ?? 'http://localhost').hostname}>`,
        sessionIdleMinutes: vars.SESSION_IDLE_MINUTES ?? 720,
        sessionMaxHours: vars.SESSION_MAX_HOURS ?? 168,
        oidc: oidcClient(vars),
      },
      limits: {
        maxRecipients: vars.MAX_RECIPIENTS ?? 50,
        maxAttachmentBytes: vars.MAX_ATTACHMENT_BYTES ?? 10 * 1024 * 1024,
        requestsPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? 600,
        // 20 MiB in a minute is 2.8 Mbit/s: a client slower than that holds a large-body turn,
        // which the others wait for, too long (nginx gives a body 60 s between two reads).
        bodyReadMs: vars.BODY_READ_TIMEOUT_MS ?? 60_000,
      },
    });
  }
}

/** SMTP_URL's relays; a URL that passed the pattern but not the URL parser (port 70000) stops the start as well. */
function relaysOf(urls: string[]): SmtpRelay[] {
  try {
    return smtpRelays(urls);
  } catch {
    throw new ConfigurationError(
      'Invalid configuration:\n  SMTP_URL: a relay is not a valid URL (a port above 65535?)',
    );
  }
}

function isDirect(smtpUrl: string[] | undefined): boolean {
  return smtpUrl?.some((entry) => entry.toLowerCase() === 'direct') ?? false;
}

/** SMTP_URL=direct's settings, checked at start; undefined for relays and the outbox. */
function directDelivery(vars: Environment): DirectDeliveryConfig | undefined {
  if (!isDirect(vars.SMTP_URL)) return undefined;
  if (vars.SMTP_URL!.length > 1)
    throw new ConfigurationError('Invalid configuration:\n  SMTP_URL: direct stands alone, never beside relays');
  try {
    const mtaStsCa = readCaFile(vars.MTA_STS_CA_FILE);
    return {
      heloName: (vars.DELIVERY_HELO_NAME ?? new URL(vars.PUBLIC_URL ?? 'http://localhost').hostname).toLowerCase(),
      sourceAddresses: parseSourceAddresses(vars.DELIVERY_SOURCE_ADDRESSES),
      mxPort: vars.DIRECT_MX_PORT ?? 25,
      mtaStsCaFile: vars.MTA_STS_CA_FILE,
      mtaStsCa,
      messagesPerConnection: vars.DELIVERY_MESSAGES_PER_CONNECTION ?? 100,
    };
  } catch (error) {
    if (error instanceof DirectConfigError) throw new ConfigurationError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
}

/**
 * A submission server with neither TLS nor insecure AUTH could never let anyone log in: a start
 * refused with the reason beats a listener that refuses every client.
 */
function submission(vars: Environment): AppConfig['submission'] {
  const tls = tlsPair(vars.SUBMISSION_TLS_CERT, vars.SUBMISSION_TLS_KEY, 'SUBMISSION_TLS');
  const allowInsecureAuth = vars.SUBMISSION_ALLOW_INSECURE_AUTH === 'true';
  if (vars.SUBMISSION_SMTP_PORT !== undefined && !tls && !allowInsecureAuth) {
    throw new ConfigurationError(
      'SUBMISSION_SMTP_PORT needs SUBMISSION_TLS_CERT and SUBMISSION_TLS_KEY (AUTH only after STARTTLS), or SUBMISSION_ALLOW_INSECURE_AUTH=true.',
    );
  }
  return { smtpPort: vars.SUBMISSION_SMTP_PORT, tls, allowInsecureAuth };
}

function trustedProxies(list: string | undefined): TrustedProxies {
  if (list === undefined) return TrustedProxies.none;
  try {
    return TrustedProxies.parse(list);
  } catch (error) {
    throw new ConfigurationError(`TRUST_PROXY: ${(error as Error).message}`);
  }
}

/** A certificate and key (`<prefix>_CERT`, `<prefix>_KEY`), read once: a path that cannot be read stops the start, naming the variable. */
function tlsPair(
  cert: string | undefined,
  key: string | undefined,
  prefix: string,
): { cert: Buffer; key: Buffer } | undefined {
  if (!cert && !key) return undefined;
  if (!cert || !key)
    throw new ConfigurationError(`Set both ${prefix}_CERT and ${prefix}_KEY (PEM file paths), or neither.`);
  const read = (name: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigurationError(`${name}: cannot read ${path} (${(error as Error).message})`);
    }
  };
  return { cert: read(`${prefix}_CERT`, cert), key: read(`${prefix}_KEY`, key) };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The three OIDC variables, all or none; the issuer over https unless it is this machine (a test provider). */
function oidcClient(vars: Environment): OidcClientConfig | undefined {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = vars;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret)
    throw new ConfigurationError('Set all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none.');
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
    throw new ConfigurationError('OIDC_ISSUER must be an https:// URL (http:// only for a provider on this machine).');
  return { issuer, clientId, clientSecret };
}

function tokenVerification(vars: Environment, production: boolean, dataDir: string): TokenVerification {
  if (vars.JWT_SECRET && vars.JWT_JWKS_URL) {
    throw new ConfigurationError(
      'Set either JWT_SECRET or JWT_JWKS_URL, not both: one process trusts one kind of key.',
    );
  }
  if (vars.JWT_JWKS_URL) return { kind: 'jwks', jwksUrl: vars.JWT_JWKS_URL, algorithms: ['RS256', 'ES256'] };
  if (vars.JWT_SECRET) return { kind: 'secret', secret: vars.JWT_SECRET, algorithms: ['HS256'] };
  if (production) {
    throw new ConfigurationError('JWT_SECRET (or JWT_JWKS_URL) is required when NODE_ENV=production.');
  }
  return { kind: 'secret', secret: readOrCreateSecret(dataDir, 'jwt-secret'), algorithms: ['HS256'] };
}

/** `FOO=` in a .env file means "not set", not "set to nothing". */
function blankToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}

/** DELIVERY_SITE_CONNECTIONS, validated: `5,google.com=3` → 5 a site, 3 where the MX hosts end in google.com. */
function siteConnections(value: string): AppConfig['delivery']['siteConnections'] {
  const [perSite, ...suffixes] = value.toLowerCase().split(',');
  return {
    perSite: Number(perSite),
    byHostSuffix: Object.fromEntries(
      suffixes.map((entry) => {
        const [suffix, limit] = entry.split('=');
        return [suffix, Number(limit)];
      }),
    ),
  };
}
