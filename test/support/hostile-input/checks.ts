import type { Response } from 'supertest';
import { addressOf } from '../../../src/platform/validation/mailbox';
import { addressKeyOf, RESERVED_KEYS } from './text';

/* The checks of the fuzz suites: what every answer must be, whatever was sent, and a tally of them. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Counts what was answered, and the distinct ways of refusing (status, field shape, message). */
export class Tally {
  total = 0;
  readonly byStatus = new Map<number, number>();
  readonly byFamily = new Map<string, number>();
  readonly rejectionPaths = new Set<string>();
  predicted = 0;

  constructor(private readonly knownFields: string[]) {}

  record(family: string, response: Response): void {
    this.total++;
    this.byStatus.set(response.status, (this.byStatus.get(response.status) ?? 0) + 1);
    this.byFamily.set(family, (this.byFamily.get(family) ?? 0) + 1);
    if (response.status < 400) return;
    const errors: { field: string; message: string }[] = Array.isArray(response.body?.errors)
      ? response.body.errors
      : [];
    if (errors.length === 0)
      this.rejectionPaths.add(`${response.status} ${mask(String(response.body?.detail)).replace(/\d+/g, 'N')}`);
    for (const { field, message } of errors)
      this.rejectionPaths.add(`${response.status} ${this.fieldShape(field)}: ${mask(message)}`);
  }

  /** `attachments[3].fileName` → `attachments[].fileName`; a key the caller made up → `<key>`. */
  private fieldShape(field: string): string {
    return String(field)
      .split(/(?=[.[])/)
      .map((segment, i) => {
        if (/^\[\d+\]$/.test(segment)) return '[]';
        const name = segment.replace(/^\./, '');
        const known =
          i === 0 ? this.knownFields.includes(name) : ['url', 'status', 'fileName', 'content'].includes(name);
        return (i === 0 ? '' : '.') + (known || RESERVED_KEYS.includes(name) ? name : '<key>');
      })
      .join('');
  }

  summary(name: string): string {
    const statuses = [...this.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    const families = [...this.byFamily].map(([family, n]) => `${family}: ${n}`).join(', ');
    return `${name}: ${this.total} inputs (${families}); statuses ${statuses}; ${this.rejectionPaths.size} distinct rejection paths; ${this.predicted} outcomes predicted and checked`;
  }
}

const mask = (text: string) =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>').replace(/\(.*\)$/, '(…)');

/** docs/api.md#errors: never a 5xx; every refusal is a problem whose status is the HTTP status. */
export function expectWellFormedAnswer(response: Response): void {
  expect(response.status).toBeLessThan(500);
  if (response.status < 300) return;
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status: response.status,
      detail: expect.any(String),
      requestId: expect.any(String),
    }),
  );
  expect(response.body.requestId).not.toBe('');
  for (const error of response.body.errors ?? [])
    expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
}

/**
 * Whether an error's field is `path` or lies under it. A body error prints a key holding NUL or
 * a surrogate escaped (`\0`, `\ud800`); a query error keeps it as it is: both forms count.
 */
function isAtOrUnder(field: string, path: string): boolean {
  const escaped = path.replace(/\0/g, '\\0').replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return [path, escaped].some((root) => field === root || field.startsWith(`${root}.`) || field.startsWith(`${root}[`));
}

/** A field error must point into the input: at a key that was sent, or at a field that was missing. */
export function expectFieldsPointIntoInput(errors: { field: string }[], keys: string[]): void {
  for (const { field } of errors) {
    if (!keys.some((key) => isAtOrUnder(field, key)))
      throw new Error(`error field ${JSON.stringify(field)} names none of ${JSON.stringify(keys)}`);
  }
}

export function expectNamed(errors: { field: string }[], fields: string[], all: boolean): void {
  const named = (field: string) => errors.some((e) => isAtOrUnder(e.field, field));
  const ok = all ? fields.every(named) : fields.some(named);
  if (!ok)
    throw new Error(
      `expected errors naming ${all ? 'all' : 'one'} of ${JSON.stringify(fields)}, got ${JSON.stringify(errors)}`,
    );
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
/** The app runs in this process: a body that polluted Object.prototype would show here. */
export function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/**
 * A 201: a Message for this user, and exactly one message stored with its recipients, history,
 * attachments and queued delivery, and the Idempotency-Key when one was sent.
 */
export function expectAcceptedSend(
  response: Response,
  userId: string,
  counts: { before: Record<string, number>; after: Record<string, number> },
  sent: unknown,
  idempotencyKey: string | undefined,
): void {
  const { before, after } = counts;
  expect(response.status).toBe(201);
  const message = response.body;
  expect(message).toEqual({
    id: expect.stringMatching(UUID),
    to: expect.any(Array),
    subject: expect.any(String),
    senderId: expect.stringMatching(UUID),
    // Scheduled while its moment is after its acceptance (docs/api.md#sending), else queued.
    status:
      message.scheduledAt !== null && Date.parse(message.scheduledAt) > Date.parse(message.sentAt)
        ? 'scheduled'
        : 'queued',
    scheduledAt: message.scheduledAt === null ? null : expect.stringMatching(ISO_UTC_MILLIS),
    userId,
    sentAt: expect.stringMatching(ISO_UTC_MILLIS),
    sender: expect.any(String),
    bulkSendingId: message.bulkSendingId === null ? null : expect.any(String),
    contactId: message.contactId === null ? null : expect.any(String),
    priority: expect.stringMatching(/^(low|normal|high)$/),
    customPayload: message.customPayload === null ? null : expect.any(Object),
    cc: message.cc === null ? null : expect.any(Array),
    bcc: message.bcc === null ? null : expect.any(Array),
    replyTo: message.replyTo === null ? null : expect.any(Array),
    // Only a deferred message has a next attempt.
    nextAttemptAt: null,
    // One pending recipient per to, cc and bcc entry, in that order (docs/delivery-and-deliverability.md#statuses; the user is new: nothing suppressed).
    recipients: (['to', 'cc', 'bcc'] as const).flatMap((type) =>
      ((message[type] ?? []) as string[]).map((entry) => ({
        // The entry's address part as given (a display name and angle brackets dropped, case kept).
        email: addressOf(entry),
        type,
        status: 'pending',
        detail: null,
        at: message.sentAt,
        // No server reached yet (docs/api.md: set by direct delivery's transactions).
        route: null,
      })),
    ),
  });
  expect(response.headers.location).toBe(`/user/messages/${message.id}`);
  const attachments = isObject(sent) && Array.isArray(sent.attachments) ? sent.attachments.length : 0;
  expect(after).toEqual({
    ...before,
    senders: before.senders + 1, // the user is new
    messages: before.messages + 1,
    // One row per recipient, to, cc and bcc alike.
    recipients: before.recipients + message.to.length + (message.cc?.length ?? 0) + (message.bcc?.length ?? 0),
    events: before.events + 1,
    attachments: before.attachments + attachments,
    webhookEvents: after.webhookEvents, // one when the webhook asks for `queued`
    deliveryJobs: before.deliveryJobs + 1,
    webhookJobs: before.webhookJobs + (after.webhookEvents - before.webhookEvents),
    idempotencyKeys: before.idempotencyKeys + (idempotencyKey === undefined ? 0 : 1),
  });
}

/** The answer to a valid body echoes what was sent. */
export function expectEcho(message: Record<string, unknown>, sent: Record<string, unknown>): void {
  expect(message).toMatchObject({
    subject: sent.subject,
    sender: sent.sender,
    priority: sent.priority ?? 'normal',
    bulkSendingId: sent.bulkSendingId ?? null,
    contactId: sent.contactId ?? null,
  });
  expect(message.customPayload).toEqual(sent.customPayload ?? null);
  // The same moment, in UTC.
  expect(message.scheduledAt).toBe(
    typeof sent.scheduledAt === 'string' ? new Date(sent.scheduledAt).toISOString() : null,
  );
  // Duplicates (by letter case) are dropped, keeping the first spelling.
  const sentTo = new Set(sent.to as string[]);
  expect((message.to as string[]).every((address) => sentTo.has(address))).toBe(true);
  expect(message.replyTo).toEqual(sent.replyTo ?? null);
  // Across to, cc and bcc too, by address part (to first, then cc, then bcc): each sent address once, in the field it came first.
  const fields = ['to', 'cc', 'bcc'] as const;
  const echoed = fields.flatMap((field) =>
    ((message[field] ?? []) as string[]).map((entry) => [field, entry] as const),
  );
  const firstSent = new Map<string, readonly [string, string]>();
  for (const field of fields) {
    for (const entry of (sent[field] ?? []) as string[])
      if (!firstSent.has(addressKeyOf(entry))) firstSent.set(addressKeyOf(entry), [field, entry]);
  }
  expect(echoed).toEqual(fields.flatMap((field) => [...firstSent.values()].filter(([f]) => f === field)));
  for (const field of ['cc', 'bcc'] as const) if (sent[field] === undefined) expect(message[field]).toBeNull();
}

export interface Page {
  messages: { userId: string }[];
  take: number;
  page: number;
  skip: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  [filter: string]: unknown;
}

/** docs/api.md#routes's envelope, consistent with itself, holding only this user's messages. */
export function expectPageEnvelope(body: Page, userId: string): void {
  const nullOr = (matcher: unknown, value: unknown) => (value === null ? null : matcher);
  expect(body).toEqual({
    messages: expect.any(Array),
    take: expect.any(Number),
    page: expect.any(Number),
    skip: expect.any(Number),
    total: expect.any(Number),
    totalPages: expect.any(Number),
    hasNext: expect.any(Boolean),
    startDate: nullOr(expect.stringMatching(ISO_UTC_MILLIS), body.startDate),
    endDate: nullOr(expect.stringMatching(ISO_UTC_MILLIS), body.endDate),
    fromEmail: nullOr(expect.any(String), body.fromEmail),
    toEmail: nullOr(expect.any(String), body.toEmail),
    statuses: nullOr(expect.any(String), body.statuses),
    bulkSending: nullOr(expect.any(String), body.bulkSending),
    q: nullOr(expect.any(String), body.q),
  });
  expect(body.skip).toBe((body.page - 1) * body.take);
  expect(body.totalPages).toBe(Math.ceil(body.total / body.take));
  expect(body.hasNext).toBe(body.page < body.totalPages);
  expect(body.messages.length).toBe(Math.max(0, Math.min(body.take, body.total - body.skip)));
  expect(body.messages.every((m) => m.userId === userId)).toBe(true);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** How many values inspectJson counts: a body over 10,000 is refused as a whole, without field errors. */
export function countValues(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value);
  return children.length + children.reduce((sum: number, child) => sum + countValues(child), 0);
}

/** FUZZ_SEED and FUZZ_PATH replay a failure that fast-check reported. */
export const replay = {
  ...(process.env.FUZZ_SEED && { seed: Number(process.env.FUZZ_SEED) }),
  ...(process.env.FUZZ_PATH && { path: process.env.FUZZ_PATH }),
};
