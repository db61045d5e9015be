import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsFQDN,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { MAX_SMTP_RELAYS, SMTP_RELAY_URL, splitSmtpUrl } from './smtp-relays';

/** Digits only: `1e3`, `0x50` and ` 80 ` are not port numbers. */
function wholeNumber({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
}

/** A relay's URL, or `direct` (AppConfig refuses `direct` beside relays). */
const SMTP_URL_ENTRY = new RegExp(`^direct$|${SMTP_RELAY_URL.source}`, 'i');

const DELAY_LIST = /^\d{1,6}(,\d{1,6})*$/;

// A host name suffix's labels (letters, digits, inner hyphens), and a limit of 1–99 connections.
const SUFFIX = String.raw`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*`;
const CONNECTIONS = String.raw`[1-9]\d?`;
/** `5,google.com=3,outlook.com=3`: the limit of every site, then the suffixes with limits of their own. */
export const SITE_CONNECTIONS = new RegExp(`^${CONNECTIONS}(?:,${SUFFIX}=${CONNECTIONS})*$`, 'i');
/** A handful of providers fit many times over; a list longer than this is a mistake. */
export const SITE_CONNECTIONS_MAX_LENGTH = 1_000;

/** The environment variables Mailroom reads (docs/configuration.md), as they arrive: strings, validated once at start-up. */
export class Environment {
  /** Only `production` changes behaviour (no generated JWT key, no demo token). */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @IsIn(['api', 'worker', 'all'])
  ROLE?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt({ message: 'DATABASE_POOL_SIZE must be a whole number' })
  @Min(1, { message: 'DATABASE_POOL_SIZE must be at least 1' })
  @Max(1000, { message: 'DATABASE_POOL_SIZE must be at most 1000' })
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @IsIn(['session', 'transaction'], { message: 'DATABASE_POOL_MODE must be session or transaction' })
  DATABASE_POOL_MODE?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_READ_URL must be a postgres:// URL' })
  DATABASE_READ_URL?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt({ message: 'DATABASE_READ_MAX_LAG_MS must be a whole number' })
  @Min(0, { message: 'DATABASE_READ_MAX_LAG_MS must be at least 0' })
  @Max(3_600_000, { message: 'DATABASE_READ_MAX_LAG_MS must be at most 3600000 (an hour)' })
  DATABASE_READ_MAX_LAG_MS?: number;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters (256 bits for HS256)' })
  JWT_SECRET?: string;

  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  JWT_JWKS_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  JWT_ISSUER?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  JWT_AUDIENCE?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  MAX_RECIPIENTS?: number;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(20 * 1024 * 1024)
  MAX_ATTACHMENT_BYTES?: number;

  /** One relay, or several comma-separated (tried in order): each URL checked on its own, never echoed (credentials). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? splitSmtpUrl(value) : value))
  @ArrayMaxSize(MAX_SMTP_RELAYS, { message: `SMTP_URL may name at most ${MAX_SMTP_RELAYS} relays` })
  @Matches(SMTP_URL_ENTRY, {
    each: true,
    message:
      'SMTP_URL must look like smtp://user:pass@host:port or smtps://host, several separated by commas, or be direct',
  })
  SMTP_URL?: string[];

  @IsOptional()
  @Matches(DELAY_LIST, { message: 'DELIVERY_RETRY_DELAYS must be comma-separated whole seconds, like 30,120,600' })
  DELIVERY_RETRY_DELAYS?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(256)
  WORKER_CONCURRENCY?: number;

  /** How long a delivery may hold its job before another worker may take it over (crash recovery). */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(3600)
  DELIVERY_LEASE_SECONDS?: number;

  /** Direct delivery's simultaneous connections per destination site (docs/delivery-and-deliverability.md#direct-delivery). */
  @IsOptional()
  @MaxLength(SITE_CONNECTIONS_MAX_LENGTH, {
    message: `DELIVERY_SITE_CONNECTIONS must be at most ${SITE_CONNECTIONS_MAX_LENGTH} characters`,
  })
  @Matches(SITE_CONNECTIONS, {
    message:
      'DELIVERY_SITE_CONNECTIONS must be the connections of every site, then host suffixes with their own, like 5,google.com=3 (each 1–99)',
  })
  DELIVERY_SITE_CONNECTIONS?: string;

  /** Unset: messages are kept forever. At most 100 years. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(36_500)
  MESSAGE_RETENTION_DAYS?: number;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'WEBHOOK_SIGNING_KEY must be at least 32 characters' })
  WEBHOOK_SIGNING_KEY?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_NETWORKS?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @Matches(DELAY_LIST, { message: 'WEBHOOK_RETRY_DELAYS must be comma-separated whole seconds, like 5,300,1800' })
  WEBHOOK_RETRY_DELAYS?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(31_536_000)
  WEBHOOK_DISABLE_AFTER_SECONDS?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  PUBLIC_URL?: string;

  @IsOptional()
  @IsFQDN({ require_tld: false }, { message: 'BOUNCE_DOMAIN must be a domain name, like bounces.example.com' })
  BOUNCE_DOMAIN?: string;

  // 0: any free port (tests read the one chosen).
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(0)
  @Max(65535)
  INBOUND_SMTP_PORT?: number;

  // 0: any free port (tests read the one chosen).
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(0)
  @Max(65535)
  SUBMISSION_SMTP_PORT?: number;

  /** PEM files; both or neither (AppConfig checks the pair and reads them). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  SUBMISSION_TLS_CERT?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  SUBMISSION_TLS_KEY?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'SUBMISSION_ALLOW_INSECURE_AUTH must be true or false' })
  SUBMISSION_ALLOW_INSECURE_AUTH?: string;

  /** The host a receiving domain's MX record points at (docs/inbound.md); unset: the host of PUBLIC_URL. */
  @IsOptional()
  @IsFQDN({ require_tld: false }, { message: 'INBOUND_MX_HOST must be a host name, like mx.example.com' })
  INBOUND_MX_HOST?: string;

  /** The largest inbound mail for a receiving domain; at least 1 MiB (bounce mail keeps its 1 MiB), at most 50 MiB. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1024 * 1024)
  @Max(50 * 1024 * 1024)
  INBOUND_MAX_BYTES?: number;

  /** Bytes of inbound mail one user may receive in a rolling 24 hours; at least 1 MiB. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1024 * 1024)
  INBOUND_DAILY_QUOTA_BYTES?: number;

  /** PEM files; both or neither (AppConfig checks the pair and reads them). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  INBOUND_TLS_CERT?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  INBOUND_TLS_KEY?: string;

  @IsOptional()
  @Matches(/^[^\s,]+(,[^\s,]+)*$/, {
    message: 'DNS_SERVERS must be comma-separated host:port entries, like 1.1.1.1,127.0.0.1:5353',
  })
  DNS_SERVERS?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'DATA_ENCRYPTION_KEY must be at least 32 characters' })
  DATA_ENCRYPTION_KEY?: string;

  /** Time a request body is given to arrive whole once its reading began (its turn came): past it, 408. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  BODY_READ_TIMEOUT_MS?: number;

  /** Addresses and CIDR ranges of the reverse proxies in front, comma-separated (AppConfig parses them). */
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  /** The sender of the service's own mail (invitations); unset: `Mailroom <no-reply@` + the host of PUBLIC_URL + `>`. */
  @IsOptional()
  @IsString()
  @MinLength(3)
  SYSTEM_MAIL_FROM?: string;

  /** A console session ends after this many minutes unused (docs/teams.md#signing-in). */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(525_600)
  SESSION_IDLE_MINUTES?: number;

  /** A console session ends this many hours after sign-in in any case. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(8_760)
  SESSION_MAX_HOURS?: number;

  /** The OpenID Connect provider members may sign in with (docs/teams.md#signing-in-with-oidc); with its client, all three or none. */
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_tld: false, require_protocol: true },
    { message: 'OIDC_ISSUER must be the http(s):// URL of the provider (its issuer identifier)' },
  )
  OIDC_ISSUER?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  OIDC_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  OIDC_CLIENT_SECRET?: string;

  /** The name direct delivery says in EHLO; unset: the host of PUBLIC_URL. */
  @IsOptional()
  @MaxLength(253)
  @IsFQDN({ require_tld: false }, { message: 'DELIVERY_HELO_NAME must be a host name, like mail.example.com' })
  DELIVERY_HELO_NAME?: string;

  /** Local IP addresses direct delivery binds to, comma-separated (AppConfig checks each). */
  @IsOptional()
  @IsString()
  DELIVERY_SOURCE_ADDRESSES?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(65535)
  DIRECT_MX_PORT?: number;

  /** A PEM CA bundle trusted beside the system's for MTA-STS (AppConfig reads it). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  MTA_STS_CA_FILE?: string;

  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(10_000)
  DELIVERY_MESSAGES_PER_CONNECTION?: number;
}
