import { Injectable } from '@nestjs/common';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { AppConfig } from '../../config/app-config';
import { Mailer, MailReceipt, OutgoingMail } from './mailer';
import { toMimeMessage } from './mime';

/** With no SMTP_URL, each message becomes one RFC 5322 file, DATA_DIR/outbox/<id>.eml, as it would be delivered (no Bcc). */
@Injectable()
export class OutboxMailer extends Mailer {
  private readonly directory: string;
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(config: AppConfig) {
    super();
    this.directory = join(config.dataDir, 'outbox');
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    // The file is the message as an SMTP server would receive it: nodemailer's stream transport
    // writes bcc recipients into a Bcc header (it has no envelope to put them in), so none are given.
    const { message } = await this.composer.sendMail({ ...(await toMimeMessage(mail)), bcc: [] });
    await mkdir(this.directory, { recursive: true });
    // A recipient's own copy is a file of its own: `<id>.<position>.eml`.
    const name = mail.copyFor ? `${mail.id}.${mail.copyFor.position}.eml` : `${mail.id}.eml`;
    const path = join(this.directory, name);
    // Written aside and renamed, so that a reader never sees half a message.
    await writeFile(`${path}.part`, message as Buffer);
    await rename(`${path}.part`, path);
    return { reply: `written to the outbox as ${name}`, rejected: [] };
  }
}
