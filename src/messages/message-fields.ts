import type { MessagePriority, MessageStatus } from './message-status';
import type { RecipientFate } from './recipient-fates';

/**
 * Where a field goes besides the stored message: `row` — lists and look-ups read it back and the
 * API echoes it (MessageRow, mapMessage); `claimed` — the delivery claim reads it (ClaimedFields);
 * `computed` — accept() computes it (or leaves it to its default) rather than taking it from the new message.
 */
type Use = 'row' | 'claimed' | 'computed';

/** One field of a message: its TypeScript type (T), its column (C), its uses (U), its API name (A). */
interface Field<T, C extends string, U extends Use, A extends string> {
  column: C;
  sqlType: string;
  uses: readonly U[];
  /** The API's name for it, where it is not the property's. */
  apiName?: A;
  /** Never set: carries T for the derived types. */
  type?: T;
}

const field =
  <T>() =>
  <const C extends string, const U extends Use = never, const A extends string = never>(
    column: C,
    sqlType: string,
    uses: readonly U[] = [],
    apiName?: A,
  ): Field<T, C, U, A> => ({ column, sqlType, uses, ...(apiName && { apiName }) });

/**
 * Every field of a message's `messages` row that code reads or writes, in one place: the accept's
 * INSERT and its jsonb_to_recordset types, the claim's columns, MessageRow and the row-to-API
 * mapping (in this order) all follow from it, so that a new field is a line here plus its
 * migration (and the entity that declares its column). Not here: what accept() writes elsewhere
 * (the sender's key, the recipients' keys, attachments, MIME).
 */
export const MESSAGE_FIELDS = {
  id: field<string>()('id', 'uuid', ['row']),
  recipients: field<string[]>()('recipients', 'text[]', ['row', 'claimed'], 'to'),
  subject: field<string>()('subject', 'text', ['row', 'claimed']),
  senderId: field<string>()('sender_id', 'uuid', ['row']),
  status: field<MessageStatus>()('status', 'text', ['row', 'computed']),
  userId: field<string>()('user_id', 'text', ['row']),
  sentAt: field<Date>()('sent_at', 'timestamptz', ['row', 'claimed']),
  sender: field<string>()('sender', 'text', ['row', 'claimed']),
  bulkSendingId: field<string | null>()('bulk_sending_id', 'text', ['row', 'claimed']),
  contactId: field<string | null>()('contact_id', 'text', ['row']),
  priority: field<MessagePriority>()('priority', 'text', ['row', 'claimed']),
  customPayload: field<Record<string, string> | null>()('custom_payload', 'jsonb', ['row']),
  /** null where not given, as bcc and replyTo. */
  cc: field<string[] | null>()('cc', 'text[]', ['row', 'claimed']),
  bcc: field<string[] | null>()('bcc', 'text[]', ['row', 'claimed']),
  replyTo: field<string[] | null>()('reply_to', 'text[]', ['row', 'claimed']),
  /** The moment asked for; the message is `scheduled` while it is after sentAt. */
  scheduledAt: field<Date | null>()('scheduled_at', 'timestamptz', ['row']),
  /** While deferred, when the next attempt is due; the statement that defers the message writes it. */
  nextAttemptAt: field<Date | null>()('next_attempt_at', 'timestamptz', ['row', 'computed']),
  /** Each recipient's own fate (docs/delivery-and-deliverability.md#statuses), in delivery order; the lifecycle's statements change it with the status. */
  recipientFates: field<RecipientFate[]>()('recipient_fates', 'jsonb', ['row'], 'recipients'),
  /** null: a text-only message. */
  html: field<string | null>()('html', 'text', ['claimed']),
  text: field<string | null>()('text', 'text', ['claimed']),
  headers: field<Record<string, string> | null>()('headers', 'jsonb', ['claimed']),
  webhookUrl: field<string | null>()('webhook_url', 'text'),
  webhookStatuses: field<MessageStatus[] | null>()('webhook_statuses', 'text[]'),
};

type Fields = typeof MESSAGE_FIELDS;
type Name = keyof Fields;
type AnyField = Field<unknown, string, Use, string>;
type TypeOf<N extends Name> = Fields[N] extends Field<infer T, string, Use, string> ? T : never;
type UsesOf<N extends Name> = Fields[N] extends Field<unknown, string, infer U, string> ? U : never;
type ApiNameOf<N extends Name> =
  Fields[N] extends Field<unknown, string, Use, infer A> ? ([A] extends [never] ? N : A) : N;
type Using<U extends Use> = { [N in Name]: U extends UsesOf<N> ? N : never }[Name];
type Json<T> = T extends Date ? string : T;

/** The fields a new message is given with, by property name. */
export type GivenFields = { [N in Exclude<Name, Using<'computed'>>]: TypeOf<N> };
/** The fields the delivery claim reads, by property name. */
export type ClaimedFields = { [N in Using<'claimed'>]: TypeOf<N> };
/** The fields lists and look-ups read, by property name (rowColumns aliases each column so). */
export type RowFields = { [N in Using<'row'>]: TypeOf<N> };
/** A row's fields as the API shows them. */
export type ApiFields = { [N in Using<'row'> as ApiNameOf<N>]: Json<TypeOf<N>> };

const entries = Object.entries(MESSAGE_FIELDS) as [Name, AnyField][];
const using = (use: Use) => entries.filter(([, f]) => f.uses.includes(use));
const given = entries.filter(([, f]) => !f.uses.includes('computed'));

/** The columns accept() copies from the new message, in the order of the definition. */
export const GIVEN_COLUMNS = given.map(([, f]) => f.column);
/** `column type` for each of them, as jsonb_to_recordset declares them. */
export const RECORDSET_COLUMNS = given.map(([, f]) => `${f.column} ${f.sqlType}`);
/** The columns of a MessageRow, as they are named in the table (for a RETURNING that later parts of the statement read). */
export const ROW_COLUMNS = using('row').map(([, f]) => f.column);
/** The select list of a MessageRow from `table`: each column under its property name, quoted where it differs. */
export const rowColumns = (table: string): string =>
  using('row')
    .map(([name, f]) => `${table}.${f.column}${name === f.column ? '' : ` AS "${name}"`}`)
    .join(', ');
/** What the claim reads of each message it moves, by property name (MessageLifecycle.claim's `returning`). */
export const CLAIMED_FIELD_COLUMNS = Object.fromEntries(
  using('claimed').map(([name, f]) => [name, `m.${f.column}`]),
) as {
  [N in keyof ClaimedFields]: string;
};

/** A new message's fields by column, as one element of the JSON that jsonb_to_recordset reads. */
export function asRecord(message: GivenFields): Record<string, unknown> {
  // A Date becomes JSON in its ISO form, with milliseconds, as the columns keep them.
  const byName = message as Record<Name, unknown>;
  return Object.fromEntries(given.map(([name, f]) => [f.column, byName[name] ?? null]));
}

/** A row's fields under the API's names, Dates as ISO strings, in the order of the definition. */
export function rowAsApi(row: RowFields): ApiFields {
  const byName = row as Record<string, unknown>;
  return Object.fromEntries(
    using('row').map(([name, f]) => {
      const value = byName[name];
      return [f.apiName ?? name, value instanceof Date ? value.toISOString() : value];
    }),
  ) as ApiFields;
}
