import fc from 'fast-check';
import { MESSAGE_PRIORITIES, MESSAGE_STATUSES } from '../../../src/messages/message-status';
import { asciiEscaped, json, printableText, RESERVED_KEYS, validAddress, validMailbox } from './text';

/*
 * POST /sender/send: valid bodies, from the smallest to every field at its largest, and what a
 * generated case is. The suite runs with docs/configuration.md's default limits, so that its largest cases are
 * the largest a user can send.
 */

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const MAX_BODY_BYTES = 20 * 1024 * 1024;
const MAX_HTML_BYTES = 5 * 1024 * 1024;

export interface SendExpectation {
  status: 201 | 400 | 413;
  /** For 400: fields of which at least one must be named in `errors`. */
  fields?: string[];
}

export interface SendCase {
  family: string;
  raw: string;
  /** The Idempotency-Key header, when one is sent. */
  idempotencyKey?: string;
  expect?: SendExpectation;
}

/** Counterexamples print with long runs of one character collapsed, so that a 5 MiB body stays readable. */
const shortened = (text: string) =>
  text.replace(/(.)\1{19,}/gsu, (run, c: string) => `${c.repeat(3)}…(${c} × ${[...run].length})…`);

/** A case, printable; a body over 20 MiB is refused as a whole with 413 (docs/api.md#errors), whatever it holds. */
export const sendCaseOf = (value: SendCase): SendCase =>
  Object.assign(value, {
    expect: Buffer.byteLength(value.raw) > MAX_BODY_BYTES ? { status: 413 } : value.expect,
    [fc.toStringMethod]: () =>
      `${value.family} ${JSON.stringify(shortened(value.raw))} key ${JSON.stringify(value.idempotencyKey)} expect ${JSON.stringify(value.expect ?? 'no 5xx')}`,
  });

// The largest value of each field, built once (fast-check would take seconds to build each).
const base64Of = (bytes: number) => Buffer.alloc(bytes, 0xa5).toString('base64');
export const LARGEST_ATTACHMENT = { fileName: `${'f'.repeat(251)}.bin`, content: base64Of(MAX_ATTACHMENT_BYTES) };
const LARGEST_SUBJECTS = ['s'.repeat(998), '😀'.repeat(998)];
const LARGEST_HTML = ['h'.repeat(MAX_HTML_BYTES), 'é'.repeat(MAX_HTML_BYTES / 2)];
const LARGEST_IDS = ['b'.repeat(255), '𝕓'.repeat(255)];
const LARGEST_FILE_NAMES = [LARGEST_ATTACHMENT.fileName, '📄'.repeat(255)];
const LARGEST_URL = `https://hooks.example.com/${'p'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
const largestPayload = (key: string, value: string) =>
  Object.fromEntries(Array.from({ length: 50 }, (_, i) => [key.repeat(100 - `${i}`.length) + i, value.repeat(1000)]));
const LARGEST_PAYLOADS = [largestPayload('k', 'v'), largestPayload('𝕂', '😀')];
const LARGEST_KEY = 'K'.repeat(255);
const LARGEST_TEXT = ['t'.repeat(MAX_HTML_BYTES), 'é'.repeat(MAX_HTML_BYTES / 2)];
const LARGEST_HEADERS = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`X-${'h'.repeat(96)}${String(i).padStart(2, '0')}`, '😀'.repeat(998)]),
);
/** 127 characters each side of the slash (RFC 6838). */
const LARGEST_CONTENT_TYPE = `${'a'.repeat(127)}/${'b'.repeat(127)}`;

/** Mostly `usual`, now and then one of the largest values the field takes. */
const orLargest = <T>(usual: fc.Arbitrary<T>, ...largest: T[]) =>
  fc.oneof({ weight: 20, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom(...largest) });

const webhookUrl = fc
  .tuple(
    fc.constantFrom('https://hooks.example.com', 'http://example.org:8080', 'https://xn--bcher-kva.example'),
    fc.stringMatching(/^(\/[a-z0-9._~-]{0,12}){0,3}$/),
  )
  .map(([origin, path]) => origin + path);

const inlineAttachment = fc.record(
  {
    fileName: orLargest(
      printableText(40, 255).filter((name) => !/[/\\]/.test(name)),
      ...LARGEST_FILE_NAMES,
    ),
    content: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('base64')),
    contentType: orLargest(
      fc.constantFrom(
        'application/pdf',
        'text/plain',
        'image/png',
        'application/vnd.ms-excel',
        'text/x-c++',
        'Application/JSON',
      ),
      LARGEST_CONTENT_TYPE,
    ),
    // Distinct in a message (a repeat is refused): a UUID keeps them apart.
    contentId: fc.uuid().map((id) => `${id}@example.com`),
  },
  { requiredKeys: ['fileName', 'content'] },
);

/** Custom header names: RFC 5322 field characters, none of the reserved ones (all of those have no X- prefix). */
const headerName = fc.stringMatching(/^X-[A-Za-z0-9!#$%&'*+.^_`|~-]{1,30}$/);
/** Values with a visible character, and no control character but tab. */
const headerValue = printableText(60, 998).filter(
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
  (value) => /\S/.test(value) && !/[\x00-\x08\x0a-\x1f\x7f]/.test(value),
);
const mailboxes = (minLength: number, maxLength: number) => fc.array(validMailbox, { minLength, maxLength });

const DAY = 86_400_000;
const STARTED = Date.now();
/** Offsets as ISO 8601 writes them, Z among them. */
const offset = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
    .map(([sign, h, m]) => `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const inOffset = (ms: number, written: string) => {
  const minutes =
    written === 'Z' ? 0 : (written[0] === '-' ? -1 : 1) * (Number(written.slice(1, 3)) * 60 + Number(written.slice(4)));
  return new Date(ms + minutes * 60_000).toISOString().replace('Z', written);
};
/** A past moment (it means now), or one from an hour to 29 days ahead: clear of the 30-day bound, which scheduled-sends.e2e-spec.ts pins. */
const scheduledAt = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: STARTED - DAY }),
      fc.integer({ min: STARTED + 3_600_000, max: STARTED + 29 * DAY }),
    ),
    offset,
  )
  .map(([ms, written]) => inOffset(ms, written));

/** customPayload keys: any printable text but the reserved names. */
const payloadKey = printableText(20, 100).filter((key) => !RESERVED_KEYS.includes(key));

/**
 * A body every reading of docs/api.md#sending accepts: subject, to, sender and html (or, now and then, text
 * alone), any of the optional fields, each now and then at its limit.
 */
export const validSendBody = fc
  .record(
    {
      subject: orLargest(
        printableText(60).filter((subject) => /\S/.test(subject)),
        ...LARGEST_SUBJECTS,
      ),
      html: fc.oneof(
        { weight: 150, arbitrary: printableText(200) },
        { weight: 30, arbitrary: printableText(40).map((text) => `<p dir="rtl">${text}</p>`) },
        // 5 MiB, the largest html allowed (rare: each one costs tens of milliseconds).
        { weight: 1, arbitrary: fc.constantFrom(...LARGEST_HTML) },
      ),
      to: fc.oneof(
        { weight: 20, arbitrary: mailboxes(1, MAX_RECIPIENTS) },
        {
          weight: 1,
          arbitrary: fc.uniqueArray(validAddress, {
            minLength: MAX_RECIPIENTS,
            maxLength: MAX_RECIPIENTS,
            selector: (a) => a.toLowerCase(),
          }),
        },
      ),
      sender: validMailbox,
      cc: mailboxes(0, 5),
      bcc: mailboxes(0, 5),
      replyTo: mailboxes(1, 10),
      text: orLargest(printableText(200), ...LARGEST_TEXT),
      headers: orLargest(
        fc
          .uniqueArray(fc.tuple(headerName, headerValue), { selector: ([name]) => name, maxLength: 5 })
          .map((entries) => Object.fromEntries(entries)),
        LARGEST_HEADERS,
      ),
      priority: fc.constantFrom(...MESSAGE_PRIORITIES),
      bulkSendingId: orLargest(printableText(40, 255), ...LARGEST_IDS),
      contactId: orLargest(printableText(40, 255), ...LARGEST_IDS),
      customPayload: orLargest(
        fc
          .uniqueArray(
            fc.tuple(
              payloadKey,
              fc.oneof(
                fc.string({ unit: 'grapheme', maxLength: 30 }),
                printableText(30, 1000),
                fc.constant('v'.repeat(1000)),
              ),
            ),
            {
              selector: ([key]) => key,
              maxLength: 6,
            },
          )
          .map((entries) => Object.fromEntries(entries)),
        ...LARGEST_PAYLOADS,
      ),
      webhook: fc.record(
        { url: orLargest(webhookUrl, LARGEST_URL), status: fc.subarray([...MESSAGE_STATUSES]) },
        { requiredKeys: ['url'] },
      ),
      attachments: fc.oneof(
        { weight: 40, arbitrary: fc.array(inlineAttachment, { maxLength: 3 }) },
        { weight: 2, arbitrary: fc.array(inlineAttachment, { minLength: 20, maxLength: 20 }) },
        // Exactly MAX_ATTACHMENT_BYTES once decoded: 13.3 MiB of base64, stored (rarer: the costliest case).
        { weight: 1, arbitrary: fc.constant([LARGEST_ATTACHMENT]) },
      ),
      scheduledAt,
    },
    { requiredKeys: ['subject', 'html', 'to', 'sender'] },
  )
  .chain((body) => (body.text === undefined ? fc.constant(body) : fc.oneof(fc.constant(body), textOnly(body))))
  .map(withinRecipientLimit);

/** The body without its html: a text-only send. */
function textOnly<T extends { html: string }>(body: T): fc.Arbitrary<Omit<T, 'html'>> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- named only to leave it out
  const { html, ...rest } = body;
  return fc.constant(rest);
}

/** cc and bcc cut so that to, cc and bcc hold at most MAX_RECIPIENTS entries, repeats or not. */
function withinRecipientLimit<T extends { to: string[]; cc?: string[]; bcc?: string[] }>(body: T): T {
  const ccRoom = Math.max(0, MAX_RECIPIENTS - body.to.length);
  const cc = body.cc?.slice(0, ccRoom);
  const bcc = body.bcc?.slice(0, ccRoom - (cc?.length ?? 0));
  return { ...body, ...(cc && { cc }), ...(bcc && { bcc }) };
}

/** An Idempotency-Key: 1–255 visible ASCII characters (a header's outer spaces do not reach the server). */
export const validIdempotencyKey = orLargest(
  fc.string({ minLength: 1, maxLength: 40 }).filter((key) => key.trim() === key),
  LARGEST_KEY,
);

/** Writes a valid body the ways a client might: compact, indented, or with every non-ASCII character escaped. */
const renderValid = (body: object, style: 'compact' | 'indented' | 'escaped'): string =>
  style === 'indented' ? JSON.stringify(body, null, '\t') : style === 'escaped' ? asciiEscaped(json(body)) : json(body);

export const validSendCase: fc.Arbitrary<SendCase> = fc
  .tuple(
    validSendBody,
    fc.constantFrom('compact', 'indented', 'escaped'),
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: validIdempotencyKey }),
  )
  .map(([body, style, idempotencyKey]) =>
    sendCaseOf({ family: 'valid', raw: renderValid(body, style), idempotencyKey, expect: { status: 201 } }),
  );

/** Attachments that decode to MAX_ATTACHMENT_BYTES and 1 to 600 bytes more, on an otherwise valid body: 413. */
export const oversizeAttachmentsCase: fc.Arbitrary<SendCase> = fc
  .tuple(validSendBody, fc.uint8Array({ minLength: 1, maxLength: 600 }))
  .map(([body, extra]) => {
    const attachments = [LARGEST_ATTACHMENT, { fileName: 'b.bin', content: Buffer.from(extra).toString('base64') }];
    return sendCaseOf({ family: 'oversize attachments', raw: json({ ...body, attachments }), expect: { status: 413 } });
  });
