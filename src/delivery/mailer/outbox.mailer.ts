import { Injectable } from '@nestjs/common';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../../platform/config/app-config';
import { composeMessage } from '../../messages';
import { envelopeOf } from '../../messages';
import type { OutgoingMail } from '../../messages';
import { MailReceipt, SingleTransactionMailer } from './mailer';

/**
 * With no SMTP_URL, each message becomes one RFC 5322 file, DATA_DIR/outbox/<id>.eml, as it would
 * be delivered (no Bcc), and its SMTP envelope a JSON file of the same name in outbox/envelopes/.
 */
@Injectable()
export class OutboxMailer extends SingleTransactionMailer {
  private readonly directory: string;
  // Beside the message, not in it: the envelope names Bcc recipients, which the message must not.
  private readonly envelopes: string;

  constructor(config: AppConfig) {
    super();
    this.directory = join(config.dataDir, 'outbox');
    this.envelopes = join(this.directory, 'envelopes');
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    // The file is the message as an SMTP server would receive it.
    const message = await composeMessage(mail);
    await mkdir(this.envelopes, { recursive: true });
    // A recipient's own copy is a file of its own: `<id>.<position>.eml`.
    const name = mail.copyFor ? `${mail.id}.${mail.copyFor.position}.eml` : `${mail.id}.eml`;
    const { from, to } = envelopeOf(mail);
    // The envelope first, so that it is there once the message is; each written aside and
    // renamed, so that a reader never sees half a file.
    await writeWhole(join(this.envelopes, `${name}.json`), `${JSON.stringify({ mailFrom: from, rcptTo: to })}\n`);
    await writeWhole(join(this.directory, name), message);
    return { reply: `written to the outbox as ${name}`, rejected: [] };
  }
}

async function writeWhole(path: string, content: Buffer | string): Promise<void> {
  await writeFile(`${path}.part`, content);
  await rename(`${path}.part`, path);
}
