import { Injectable, Logger } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { AppConfig } from '../../platform/config/app-config';
import { toMimeMessage } from '../../messages';
import type { OutgoingMail } from '../../messages';
import { SingleTransactionMailer, MailDeliveryError, MailReceipt, Refusal } from './mailer';
import { movesToNextRelay } from './relay-failover';
import { RelaySkips } from './relay-skips';
import { RelayTransport, relayTransportsOf, SEND_BUDGET_MS } from './relay-transports';

const logger = new Logger('Delivery');

/**
 * Delivers over SMTP (SMTP_URL) through @nestjs-modules/mailer's pooled nodemailer transports, one
 * per relay, tried in order within one attempt (docs/delivery-and-deliverability.md#relays-and-failover).
 * Every reply and error names the relay it came from, host and port only.
 */
@Injectable()
export class SmtpMailer extends SingleTransactionMailer {
  private readonly relays: RelayTransport[];

  constructor(
    private readonly mailer: MailerService,
    config: AppConfig,
    private readonly skips: RelaySkips,
  ) {
    super();
    this.relays = relayTransportsOf(config.delivery.relays);
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    const message = await toMimeMessage(mail);
    // One budget for the whole attempt, however many relays it takes.
    const deadline = performance.now() + SEND_BUDGET_MS;
    const failures: string[] = [];
    const order = this.skips.order(this.relays);
    for (const [index, relay] of order.entries()) {
      try {
        const info = await this.mailer.sendMail({
          ...message,
          transporterName: relay.transporterName,
          timeout: Math.max(1, Math.round(deadline - performance.now())),
        });
        this.skips.answered(relay);
        const { rejectedErrors } = info as { rejectedErrors?: unknown[] };
        return { reply: `${String(info.response ?? '')} (relay ${relay.name})`, rejected: refusalsOf(rejectedErrors) };
      } catch (error) {
        const failed = classify(error, relay.name);
        if (!movesToNextRelay(error)) {
          // A reply that is the answer (a 5xx) names this relay alone, so that it reads as the
          // server's reply it is (the bounce reader's rule reads it); the relays passed over are logged.
          if (typeof (error as { responseCode?: unknown } | undefined)?.responseCode === 'number') {
            this.skips.answered(relay);
            throw failed;
          }
          // No reply: the message itself failed, or the budget ran out (MailerService's timeout)
          // while the send may still be under way at this relay; no other is asked in this attempt.
          if (performance.now() >= deadline) this.skips.failed(relay);
          throw withEarlier(failed, failures);
        }
        this.skips.failed(relay);
        const next = order[index + 1];
        if (!next || performance.now() >= deadline) throw withEarlier(failed, failures);
        failures.push(failed.message);
        logger.warn(
          { messageId: mail.id, relay: relay.name, next: next.name, detail: failed.message },
          `Relay ${relay.name} failed, trying ${next.name}: ${failed.message}`,
        );
      }
    }
    // Unreachable: there is always one relay, and the last one's failure is thrown above.
    throw new MailDeliveryError('no relay configured', false);
  }
}

/** The last relay's failure, its detail preceded by what the relays tried before it said. */
function withEarlier(error: MailDeliveryError, earlier: string[]): MailDeliveryError {
  if (earlier.length === 0) return error;
  return new MailDeliveryError([...earlier, error.message].join('; '), error.permanent, error.command, error.refused);
}

/**
 * docs/delivery-and-deliverability.md#statuses: a 5xx reply is permanent; 4xx replies, timeouts and connection failures are retried.
 * A 5xx about our own login or TLS (EAUTH, 530 must STARTTLS) says nothing about the message: a
 * wrong password must not fail the whole backlog, so those are retried too. The detail names the
 * relay (`relay`, host and port) when there is one.
 */
export function classify(error: unknown, relay?: string): MailDeliveryError {
  const { responseCode, response, message, code, command, rejectedErrors } = error as {
    responseCode?: number;
    response?: string;
    message?: string;
    code?: string;
    command?: string;
    rejectedErrors?: unknown[];
  };
  const detail = response ?? [code, message].filter(Boolean).join(': ');
  const aboutUs = code === 'EAUTH' || responseCode === 530;
  const named = relay === undefined ? '' : ` (relay ${relay})`;
  return new MailDeliveryError(
    `${detail || 'unknown SMTP error'}${named}`,
    typeof responseCode === 'number' && responseCode >= 500 && !aboutUs,
    response === undefined ? undefined : command,
    refusalsOf(rejectedErrors),
  );
}

/** nodemailer's errors for the recipients refused at RCPT TO (each names its recipient). */
export function refusalsOf(errors: unknown[] | undefined): Refusal[] {
  return (errors ?? []).map((error) => {
    const { recipient, response, message, responseCode } = error as {
      recipient?: string;
      response?: string;
      message?: string;
      responseCode?: number;
    };
    return {
      address: String(recipient),
      reply: response ?? message ?? '',
      permanent: typeof responseCode === 'number' && responseCode >= 500,
    };
  });
}
