import type { CopiesProgress } from '../platform/queue/delivery-queue';
import { AttemptOutcome, HandOverResult } from './delivery-retry-policy';
import { MailDeliveryError } from './mailer/mailer';

/** What the mailer made of one recipient's copy. */
export interface CopyResult {
  address: string;
  /** The recipient's position (recipient-positions.ts), as the next attempt's job names it. */
  position: number;
  result: HandOverResult;
}

export type CopiesOutcome = AttemptOutcome & { copies?: CopiesProgress };

const replyOf = (error: unknown) => (error as Error | undefined)?.message || 'the transport failed';
const isPermanent = (error: unknown) => error instanceof MailDeliveryError && error.permanent;
const named = (label: string, entries: string[]) => (entries.length > 0 ? ` (${label}: ${entries.join(', ')})` : '');

/**
 * The retry rule (docs/delivery-and-deliverability.md#statuses) for a message sent as one copy per recipient, whose copies fare each
 * their own way. An accepted copy is never sent again, and a copy refused for good never retried:
 * while attempts remain (DELIVERY_RETRY_DELAYS), copies refused for now make the message deferred,
 * and the next attempt sends those alone (`copies`, carried in its job). Once none is left to
 * retry, the message is sent if any copy was ever accepted, the others named as refused, and
 * failed if none was: the relay took it for nobody.
 */
export function copiesOutcome(
  results: CopyResult[],
  before: CopiesProgress | undefined,
  attempt: number,
  retryDelays: readonly number[],
): CopiesOutcome {
  const receipts = results.flatMap(({ result }) => ('receipt' in result ? [result.receipt] : []));
  const failures = results.flatMap(({ address, position, result }) =>
    'error' in result ? [{ address, position, error: result.error }] : [],
  );
  const temporary = failures.filter(({ error }) => !isPermanent(error));
  const acceptedInAll = (before?.accepted ?? 0) + receipts.length;
  const retry = temporary.length > 0 && attempt <= retryDelays.length;

  const counted = before
    ? `${receipts.length} of the ${results.length} pending copies accepted (${acceptedInAll} in all), one per recipient`
    : `${receipts.length} of ${results.length} copies accepted, one per recipient`;
  const head = receipts.length > 0 ? `${counted}: ${receipts[0].reply}` : counted;
  const gaveUp = retry ? '' : `, gave up after ${attempt} attempts`;
  const refused = [
    ...receipts.flatMap((receipt) => receipt.rejected.map((r) => r.address)),
    ...failures
      .filter((f) => !retry || isPermanent(f.error))
      .map((f) => `${f.address} (${replyOf(f.error)}${isPermanent(f.error) ? '' : gaveUp})`),
  ];
  const pending = retry ? temporary.map((f) => `${f.address} (${replyOf(f.error)})`) : [];
  const detail = `${head}${named('pending', pending)}${named('refused', refused)}`;

  if (retry) {
    return {
      status: 'deferred',
      detail,
      retryAfterSeconds: retryDelays[attempt - 1],
      copies: { pending: temporary.map((f) => f.position), accepted: acceptedInAll },
    };
  }
  return { status: acceptedInAll > 0 ? 'sent' : 'failed', detail };
}
