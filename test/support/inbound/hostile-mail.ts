// Received mail shaped to reach each limit of InboundMailLimits exactly, or one past it.
const CRLF = '\r\n';

const head = (fields: string) => `From: cara@example.org${CRLF}To: desk@example.com${CRLF}${fields}`;

/** A mail of exactly `bytes` bytes, in lines of 76 characters. */
export function mailOfSize(bytes: number): Buffer {
  const top = Buffer.from(`${head('Subject: a large one')}${CRLF}${CRLF}`);
  const room = bytes - top.length;
  const line = `${'x'.repeat(76)}${CRLF}`;
  const body = line.repeat(Math.floor(room / line.length));
  const rest = room - body.length;
  // The last line takes what is left (at least its CRLF).
  const last = rest >= 2 ? `${'y'.repeat(rest - 2)}${CRLF}` : '';
  const raw = Buffer.from(top.toString() + body + last + (rest === 1 ? 'z' : ''));
  if (raw.length !== bytes) throw new Error(`built ${raw.length} bytes, not ${bytes}`);
  return raw;
}

/** A mail whose header block (its blank line included) is exactly `bytes` bytes. */
export function mailWithHeaderBlock(bytes: number): Buffer {
  const fields = head('Subject: a long header');
  const fixed = `${fields}${CRLF}X-Padding: ${CRLF}${CRLF}`.length;
  // Folded lines of 70 characters, as a long field is written.
  let padding = '';
  while (fixed + padding.length < bytes) {
    const left = bytes - fixed - padding.length;
    padding += left > 74 ? `${'p'.repeat(70)}${CRLF}\t` : 'p'.repeat(left);
  }
  const raw = Buffer.from(`${fields}${CRLF}X-Padding: ${padding}${CRLF}${CRLF}body${CRLF}`);
  if (raw.indexOf(`${CRLF}${CRLF}`) + 4 !== bytes) throw new Error('header block of the wrong size');
  return raw;
}

/** A mail whose deepest part sits at level `depth` (the mail itself is level 1). */
export function mailNested(depth: number): Buffer {
  const part = (level: number): string =>
    level === depth
      ? `Content-Type: text/plain${CRLF}${CRLF}the deepest part${CRLF}`
      : `Content-Type: multipart/mixed; boundary="b${level}"${CRLF}${CRLF}--b${level}${CRLF}${part(level + 1)}--b${level}--${CRLF}`;
  return Buffer.from(`${head('Subject: nested\r\nMIME-Version: 1.0')}${CRLF}${part(1)}`);
}

/** A multipart mail of `parts` parts in all (itself included): `parts - 1` children, text or attachments. */
export function mailOfParts(parts: number, child: (index: number) => string): Buffer {
  const children = Array.from({ length: parts - 1 }, (_, i) => `--b${CRLF}${child(i)}${CRLF}`).join('');
  return Buffer.from(
    `${head('Subject: many parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"')}${CRLF}${CRLF}${children}--b--${CRLF}`,
  );
}

export const textPart = (i: number) => `Content-Type: text/plain${CRLF}${CRLF}part ${i}`;
export const attachmentPart = (i: number) =>
  `Content-Type: application/octet-stream${CRLF}Content-Disposition: attachment; filename="f${i}.bin"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}AAEC`;

/** A mail with one body line of exactly `bytes` bytes (its CRLF apart). */
export function mailWithLine(bytes: number): Buffer {
  return Buffer.from(`${head('Subject: one long line')}${CRLF}${CRLF}${'l'.repeat(bytes)}${CRLF}`);
}

/** Any raw mail, its header fields given as lines. */
export const rawMail = (fields: string[], body: Buffer | string = '') =>
  Buffer.concat([
    Buffer.from(`${fields.join(CRLF)}${CRLF}${CRLF}`, 'latin1'),
    typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
  ]);

/** A mail of exactly `lines` lines (its header block and blank line included): a body of one `unit` a line. */
export function mailOfLines(lines: number, unit = 'A', encoding = 'base64'): Buffer {
  const fields = [
    'From: cara@example.org',
    'To: desk@example.com',
    'Subject: many lines',
    'MIME-Version: 1.0',
    'Content-Type: application/octet-stream',
    `Content-Transfer-Encoding: ${encoding}`,
  ];
  return rawMail(fields, `${unit}${CRLF}`.repeat(lines - fields.length - 1));
}
