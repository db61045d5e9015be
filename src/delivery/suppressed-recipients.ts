import { recipientKey } from '../messages';

interface Recipients {
  recipients: string[];
  cc: string[] | null;
  bcc: string[] | null;
}

/** The history detail naming the suppressed recipients a delivery skips (docs/delivery-and-deliverability.md#statuses). */
export function suppressedDetail(keys: readonly string[], all: boolean): string {
  const named = [...keys].sort().join(', ');
  return all ? `every recipient is suppressed: ${named}` : `skipped suppressed recipients: ${named}`;
}

/**
 * The message without its suppressed recipients, in to, cc and bcc alike, compared by address
 * key. They leave the headers as well as the envelope: a To or Cc header naming an address the
 * mail never went to would tell the others it did.
 */
export function withoutSuppressed<M extends Recipients>(message: M, keys: readonly string[]): M {
  if (keys.length === 0) return message;
  const suppressed = new Set(keys);
  const keep = (list: string[]) => list.filter((entry) => !suppressed.has(recipientKey(entry)));
  return {
    ...message,
    recipients: keep(message.recipients),
    cc: message.cc && keep(message.cc),
    bcc: message.bcc && keep(message.bcc),
  };
}
