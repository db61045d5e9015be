import { addressOf } from '../platform/validation/mailbox';
import { addressKey } from '../platform/mail/addresses';

export interface RecipientFields {
  to: string[];
  cc?: string[];
  bcc?: string[];
}

/** The comparison key of a recipient as given: its address part, lower-cased. */
export const recipientKey = (entry: string): string => addressKey(addressOf(entry));

/**
 * A stored message's recipients in delivery order, to, then cc, then bcc, as given: the
 * positions that recipient tokens (VERP addresses, unsubscribe links) count. Intake keeps their
 * keys distinct, and the order never changes once stored, so a position names one recipient for good.
 */
export function deliveryOrder(message: { recipients: string[]; cc: string[] | null; bcc: string[] | null }): string[] {
  return [...message.recipients, ...(message.cc ?? []), ...(message.bcc ?? [])];
}

/**
 * to, cc and bcc with repeated addresses dropped: a recipient is kept where it first appears,
 * to before cc before bcc, spelled as first given. Entries that are not strings are kept, for
 * validation to name them.
 */
export function distinctRecipients<T extends Partial<Record<keyof RecipientFields, unknown>>>(fields: T): T {
  const seen = new Set<string>();
  const keep = (list: unknown) =>
    Array.isArray(list)
      ? list.filter((entry) => {
          if (typeof entry !== 'string') return true;
          const key = recipientKey(entry);
          return !seen.has(key) && Boolean(seen.add(key));
        })
      : list;
  return { ...fields, to: keep(fields.to), cc: keep(fields.cc), bcc: keep(fields.bcc) };
}

/** How many recipients a message has, once repeats across to, cc and bcc are dropped. */
export function recipientCount(fields: Partial<Record<keyof RecipientFields, unknown>>): number {
  const distinct = distinctRecipients(fields);
  return [distinct.to, distinct.cc, distinct.bcc].reduce<number>(
    (sum, list) => sum + (Array.isArray(list) ? list.length : 0),
    0,
  );
}

/** docs/api.md#sending: `MAX_RECIPIENTS` bounds to, cc and bcc together, repeats dropped; the message names `to` alone when it is alone. */
export function recipientLimitMessage(
  fields: Partial<Record<keyof RecipientFields, unknown>>,
  max: number,
): string | undefined {
  if (recipientCount(fields) <= max) return undefined;
  const together = [fields.cc, fields.bcc].some((list) => Array.isArray(list) && list.length > 0);
  return `must have at most ${max} distinct recipients${together ? ' across to, cc and bcc' : ''}`;
}
