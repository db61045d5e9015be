import { Injectable } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { toMimeMessage } from '../../messages';
import type { OutgoingMail } from '../../messages';
import { Mailer, MailDeliveryError, MailReceipt, Refusal } from './mailer';

/** Delivers over SMTP (SMTP_URL) through @nestjs-modules/mailer's pooled nodemailer transport. */
@Injectable()
export class SmtpMailer extends Mailer {
  constructor(private readonly mailer: MailerService) {
    super();
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    try {
      const info = await this.mailer.sendMail(await toMimeMessage(mail));
      const { rejectedErrors } = info as { rejectedErrors?: unknown[] };
      return { reply: String(info.response ?? ''), rejected: refusalsOf(rejectedErrors) };
    } catch (error) {
      throw classify(error);
    }
  }
}

/**
 * docs/delivery-and-deliverability.md#statuses: a 5xx reply is permanent; 4xx replies, timeouts and connection failures are retried.
 * A 5xx about our own login or TLS (EAUTH, 530 must STARTTLS) says nothing about the message: a
 * wrong password must not fail the whole backlog, so those are retried too.
 */
export function classify(error: unknown): MailDeliveryError {
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
  return new MailDeliveryError(
    detail || 'unknown SMTP error',
    typeof responseCode === 'number' && responseCode >= 500 && !aboutUs,
    response === undefined ? undefined : command,
    refusalsOf(rejectedErrors),
  );
}

/** nodemailer's errors for the recipients refused at RCPT TO (each names its recipient). */
function refusalsOf(errors: unknown[] | undefined): Refusal[] {
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
