import { join } from 'node:path';
import type { FirstOwnerLink } from './auth';
import { AppConfig } from './platform/config/app-config';

export interface Banner {
  title: string;
  rows: [label: string, value: string][];
}

/**
 * What a user needs once the process is ready: where it answers (the API and the console of
 * docs/architecture.md#the-console; a worker: only to probes and scrapers), where mail goes, how an app logs in to SMTP
 * submission, a token to try it, and while the demo account has no member, the link that makes its
 * first owner (docs/teams.md#the-first-owner).
 */
export function startupBanner(
  config: AppConfig,
  demoToken?: { user: string; token: string; ttl: string },
  firstOwner?: FirstOwnerLink,
): Banner {
  const base = `http://${displayHost(config.host)}:${config.port}`;
  const rows: Banner['rows'] =
    config.role === 'worker'
      ? [['Health', `${base}/health`]]
      : [
          ['API', base],
          ['Console', `${base}/console`],
          ['Swagger UI', `${base}/docs`],
        ];
  rows.push(['Metrics', `${base}/metrics`], ['Mail', mailTransport(config)]);
  const submission = submissionListener(config);
  if (submission) rows.push(['SMTP submission', submission]);
  const inbound = inboundListener(config);
  if (inbound) rows.push(['Inbound SMTP', inbound]);
  if (demoToken) rows.push(['Token', `${demoToken.token}  (user "${demoToken.user}", valid ${demoToken.ttl})`]);
  if (firstOwner) {
    rows.push([
      'First owner',
      `${firstOwner.link}  (account "${firstOwner.account}": choose the password of ${firstOwner.email}; a new link each start until someone joins)`,
    ]);
  }
  return { title: `Mailroom is ready (ROLE=${config.role})`, rows };
}

/** The banner as a few aligned lines, for a person at a terminal. */
export function formatBanner({ title, rows }: Banner): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return `\n${title}\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n\n`;
}

/** The banner as one log line, for a log collector. */
export function bannerAsLogLine({ title, rows }: Banner): string {
  return `${title}: ${rows.map(([label, value]) => `${label} ${value}`).join(', ')}`;
}

function mailTransport(config: AppConfig): string {
  const { relays } = config.delivery;
  if (relays.length === 0) return `written as .eml files to ${join(config.dataDir, 'outbox')} (set SMTP_URL to send)`;
  // Never the credentials of the URLs.
  const shown = relays.map(({ url, name }) => `${new URL(url).protocol}//${name}`);
  return shown.length === 1 ? `sent through ${shown[0]}` : `sent through ${shown.join(', then ')} (failover)`;
}

/** Where and how an app submits mail over SMTP (API processes, docs/api.md#smtp-submission); undefined when off. */
function submissionListener(config: AppConfig): string | undefined {
  const { smtpPort, tls } = config.submission;
  if (config.role === 'worker' || smtpPort === undefined) return undefined;
  const security = tls ? 'STARTTLS, AUTH after it' : 'no TLS (SUBMISSION_ALLOW_INSECURE_AUTH)';
  return `${displayHost(config.host)}:${smtpPort}, ${security}; user: anything, password: an API key with scope "send" (POST /user/api-keys)`;
}

/**
 * Where bounces, complaints and received mail come in (docs/delivery-and-deliverability.md, docs/inbound.md: worker processes, and ROLE=all);
 * undefined when off. An operator points the MX records (or port 25's forwarding) here.
 */
function inboundListener(config: AppConfig): string | undefined {
  const { inboundSmtpPort, bounceDomain } = config.deliverability;
  if (config.role === 'api' || inboundSmtpPort === undefined) return undefined;
  const port = inboundSmtpPort === 0 ? 'a free port chosen at start (INBOUND_SMTP_PORT=0)' : String(inboundSmtpPort);
  const domains = bounceDomain ? `${bounceDomain} and receiving domains` : 'receiving domains';
  return `${displayHost(config.host)}:${port}, the MX of ${domains}`;
}

/** A wildcard address is reachable as localhost; any other is shown as given. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
