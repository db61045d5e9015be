// What the read-back tests share: the checks every byte answer must pass (docs/api.md#reading-back), and the
// comparison of a read-back .eml with what the SMTP sink received.
import { parse as parseDisposition } from 'content-disposition';
import type { ParsedMail } from 'mailparser';
import type { Response } from 'supertest';

/** A byte answer's headers: the stored type, a download under `fileName` (RFC 6266, read by the package Express uses), nosniff, sandbox. */
export function expectByteHeaders(response: Response, contentType: string, fileName: string | null): void {
  expect(response.headers['content-type']).toBe(contentType);
  const disposition = parseDisposition(response.headers['content-disposition']);
  expect(disposition).toEqual({ type: 'attachment', parameters: fileName === null ? {} : expect.anything() });
  if (fileName !== null) expect(disposition.parameters.filename).toBe(fileName);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['content-security-policy']).toBe('sandbox');
  // Latin-1 only in a header: a non-ASCII name goes as filename*, never raw.
  expect(response.headers['content-disposition']).toMatch(/^[\x20-\x7e]+$/);
}

/** supertest's parser for a body it would otherwise leave unread: the bytes as they came. */
export function asBytes(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** Fields every copy has of its own, or that a delivery adds: left out when the read-back .eml is compared. */
export const PER_COPY = ['date', 'list-unsubscribe', 'list-unsubscribe-post', 'dkim-signature'];

/** The top-level fields of a parsed mail, name and unfolded value, but those of each copy and the MIME boundary parameter. */
export function headerFields(mail: ParsedMail): [string, string][] {
  return mail.headerLines
    .filter(({ key }) => !PER_COPY.includes(key))
    .map(
      ({ key, line }) =>
        [
          key,
          line
            .slice(line.indexOf(':') + 1)
            .replace(/\r?\n[ \t]/g, ' ')
            .trim(),
        ] as [string, string],
    )
    .map(([key, value]) => [
      key,
      key === 'content-type' ? value.replace(/boundary=("[^"]*"|\S+)/, 'boundary=…') : value,
    ]);
}

/** What a reader sees of a mail's parts: bodies, and each attachment's name, type, Content-ID and bytes. */
export function partsOf(mail: ParsedMail) {
  return {
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments.map((a) => ({
      fileName: a.filename,
      contentType: a.contentType,
      contentId: a.contentId ?? null,
      disposition: a.contentDisposition,
      content: a.content.toString('base64'),
    })),
  };
}
