import { addressOf } from '../platform/validation/mailbox';
import type { MessageStatus } from './message-status';
import { recipientKey } from './recipients';

export const RECIPIENT_STATUSES = [
  'pending',
  'sent',
  'deferred',
  'failed',
  'bounced',
  'complained',
  'suppressed',
  'canceled',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export type RecipientType = 'to' | 'cc' | 'bcc';

/** A recipient's fates before any server accepted or refused it for good: a cancel or the suppression list still reaches it. */
export const STILL_TO_TRY: readonly RecipientStatus[] = ['pending', 'deferred'];

/** The fates a `recipient.<status>` event announces (docs/delivery-and-deliverability.md#webhooks); the lifecycle's statements write them. */
export const RECIPIENT_EVENT_STATUSES = ['failed', 'bounced', 'complained', 'suppressed'] as const;

/** One recipient's own fate (docs/delivery-and-deliverability.md#statuses "Recipients"), as the Message shows it and `messages.recipient_fates` keeps it. */
export interface RecipientFate {
  /** The address part as given (display name dropped, case kept). */
  email: string;
  type: RecipientType;
  status: RecipientStatus;
  /** The reply, report diagnostic or suppression reason that set the status; null while pending. */
  detail: string | null;
  /** ISO 8601 UTC with milliseconds: the last change. */
  at: string;
  /**
   * Kept, not shown: for a failed recipient, whether the receiving server refused it, for the
   * address itself or otherwise (FateChange.refused); what GET /user/stats counts (docs/api.md#reading-back).
   */
  refused?: Refusal;
  /**
   * Where the last delivery transaction that reached a server for this recipient went
   * (docs/api.md#reading-back): the server that answered and whether TLS protected the session;
   * absent while none was reached (and for the outbox). A change that reached none keeps it.
   */
  route?: FateRoute;
}

/** The server a recipient's transaction reached, and whether over TLS. */
export interface FateRoute {
  host: string;
  tls: boolean;
}

/** Who refused a failed recipient: the receiving server, for the address itself (docs/delivery-and-deliverability.md) or another reason. */
export type Refusal = 'address' | 'other';

/**
 * A change of one recipient's fate, as the lifecycle's statements take it: by `position` in the
 * message's delivery order (to, cc, bcc: the order of `recipients`), with the address key that
 * history entries name.
 */
export interface FateChange {
  position: number;
  key: string;
  status: RecipientStatus;
  detail: string | null;
  /**
   * For a failed recipient the receiving server refused: `address` when the refusal is about the
   * address itself (docs/delivery-and-deliverability.md's rule, read at the refusal), else `other`. Absent when no server
   * answered (nothing was handed over).
   */
  refused?: Refusal;
  /** The server the transaction reached, and whether over TLS; absent when none answered. */
  route?: FateRoute;
}

/**
 * A new message's recipients, each pending, or suppressed with its reason when `suppressed` (by
 * address key) names it. `to`, `cc` and `bcc` are distinct already (intake drops repeats).
 */
export function initialFates(
  lists: { to: string[]; cc: string[]; bcc: string[] },
  suppressed: ReadonlyMap<string, string>,
  at: Date,
): RecipientFate[] {
  const types: RecipientType[] = ['to', 'cc', 'bcc'];
  return types.flatMap((type) =>
    lists[type].map((entry) => {
      const reason = suppressed.get(recipientKey(entry));
      return {
        email: addressOf(entry),
        type,
        status: reason ? 'suppressed' : 'pending',
        detail: reason ?? null,
        at: at.toISOString(),
      } satisfies RecipientFate;
    }),
  );
}

/** What a message's status says of recipients whose own fates were never kept. */
const FATE_OF_STATUS: Partial<Record<MessageStatus, RecipientStatus>> = {
  sent: 'sent',
  // The relay took it; which recipient bounced or complained is in the history.
  bounced: 'sent',
  complained: 'sent',
  deferred: 'deferred',
  failed: 'failed',
  suppressed: 'suppressed',
  canceled: 'canceled',
};

/**
 * The fates of a message stored with none (`[]`): before they were kept, or by a process of the
 * previous version during a rolling deploy. Read from its status, each recipient alike, at its
 * acceptance: the best the stored message can say.
 */
export function fatesFromStatus(message: {
  to: string[];
  cc: string[] | null;
  bcc: string[] | null;
  status: MessageStatus;
  sentAt: Date;
}): RecipientFate[] {
  const status = FATE_OF_STATUS[message.status] ?? 'pending';
  const lists = { to: message.to, cc: message.cc ?? [], bcc: message.bcc ?? [] };
  return initialFates(lists, new Map(), message.sentAt).map((fate) => ({ ...fate, status }));
}

/** Why a recipient not yet accepted reads `canceled` (docs/delivery-and-deliverability.md#statuses). */
export const CANCELED_DETAIL = 'Canceled by its owner before it was delivered';

/**
 * A cancel's recipient changes (docs/delivery-and-deliverability.md#statuses): those still to be tried (pending, or deferred by a
 * temporary refusal) become canceled; those the relay accepted keep `sent`, and a refusal or a
 * suppression stays what it was, so nothing reads `deferred` after a cancel.
 */
export function canceledFates(fates: RecipientFate[]): FateChange[] {
  return fates.flatMap((fate, position) =>
    STILL_TO_TRY.includes(fate.status)
      ? [{ position, key: recipientKey(fate.email), status: 'canceled' as const, detail: CANCELED_DETAIL }]
      : [],
  );
}
