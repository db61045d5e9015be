import { Injectable } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { Mailer, MailDeliveryError, MailReceipt, OutgoingMail } from './mailer';
import { toMimeMessage } from './mime';

/** Delivers over SMTP (SMTP_URL) through @nestjs-modules/mailer's pooled nodemailer transport. */
@Injectable()
export class SmtpMailer extends Mailer {
  constructor(private readonly mailer: MailerService) {
    super();
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    try {
      const info = await this.mailer.sendMail(await toMimeMessage(mail));
      return { reply: String(info.response ?? ''), rejected: (info.rejected ?? []).map(String) };
    } catch (error) {
      throw classify(error);
    }
  }
}

/**
 * SPEC §5: a 5xx reply is permanent; 4xx replies, timeouts and connection failures are retried.
 * A 5xx about our own login or TLS (EAUTH, 530 must STARTTLS) says nothing about the message: a
 * wrong password must not fail the whole backlog, so those are retried too.
 */
export function classify(error: unknown): MailDeliveryError {
  const { responseCode, response, message, code } = error as {
    responseCode?: number;
    response?: string;
    message?: string;
    code?: string;
  };
  const detail = response ?? [code, message].filter(Boolean).join(': ');
  const aboutUs = code === 'EAUTH' || responseCode === 530;
  return new MailDeliveryError(
    detail || 'unknown SMTP error',
    typeof responseCode === 'number' && responseCode >= 500 && !aboutUs,
  );
}
