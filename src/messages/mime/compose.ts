import type { Readable } from 'node:stream';
import { createTransport } from 'nodemailer';
import { toMimeMessage, toStreamedSubmittedMessage } from './mime';
import type { OutgoingMail } from './outgoing-mail';

// nodemailer's own pipeline (message, plugins, composer, DKIM signer), as its SMTP transport runs
// it, writing the message out instead of sending it.
const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/**
 * A message's RFC 5322 bytes as they are delivered: composed from its fields (or its submitted
 * MIME), signed when it carries a DKIM key. Never a Bcc header: the stream transport would write
 * one for the bcc recipients (it has no envelope to put them in), so none are given to it.
 */
export async function composeMessage(mail: OutgoingMail): Promise<Buffer> {
  const { message } = await composer.sendMail({ ...(await toMimeMessage(mail)), bcc: [] });
  return message as Buffer;
}

/**
 * The message as composed for delivery, to read back (docs/api.md#reading-back): the same composition, without
 * what one recipient's copy adds (its envelope, List-Unsubscribe naming it) and without a signature.
 */
export function composeForReading(mail: OutgoingMail): Promise<Buffer> {
  return composeMessage({ ...mail, copyFor: undefined, dkim: undefined });
}

// The same pipeline, its output a stream read as its reader reads.
const streamingComposer = createTransport({ streamTransport: true, buffer: false, newline: 'windows' });

/**
 * composeForReading of a submitted message whose MIME comes as a stream (read back from storage
 * chunk by chunk), as a stream: nothing holds the whole message, and a reader that stops reading
 * stops the reading from storage.
 */
export async function composeSubmittedForReading(mail: OutgoingMail, mime: Readable): Promise<Readable> {
  const { message } = await streamingComposer.sendMail({ ...toStreamedSubmittedMessage(mail, mime), bcc: [] });
  return message as Readable;
}
