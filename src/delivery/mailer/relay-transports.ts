import type { MailerOptions } from '@nestjs-modules/mailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { SmtpRelay } from '../../platform/config/smtp-relays';

/** A relay of SMTP_URL with the name of its transporter in @nestjs-modules/mailer's MailerService. */
export interface RelayTransport extends SmtpRelay {
  transporterName: string;
}

/** The send budget: half the default lease (120 s), so that a job is not taken over while its send still runs. */
export const SEND_BUDGET_MS = 60_000;

export function relayTransportsOf(relays: readonly SmtpRelay[]): RelayTransport[] {
  return relays.map((relay, index) => ({ ...relay, transporterName: `relay-${index + 1}` }));
}

/** MailerModule's options: one pooled nodemailer transport per relay, each with WORKER_CONCURRENCY connections. */
export function mailerOptionsFor(relays: readonly SmtpRelay[], concurrency: number): MailerOptions {
  const transports = relayTransportsOf(relays).map(({ transporterName, url }): [string, SMTPPool.Options] => [
    transporterName,
    {
      url,
      pool: true,
      maxConnections: concurrency,
      // nodemailer's default (100) reconnects every few seconds under load.
      maxMessages: 10_000,
      // Well under the job lease, so a stuck server costs an attempt, not the lease.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
  ]);
  // Each send is also given what is left of SEND_BUDGET_MS across relays (SmtpMailer).
  return { sendTimeout: SEND_BUDGET_MS, transports: Object.fromEntries(transports) };
}
