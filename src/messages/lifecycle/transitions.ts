import { sqlList } from '../../platform/database/sql-list';
import type { MessageStatus } from '../message-status';

/** The status every accepted message starts in (docs/delivery-and-deliverability.md#statuses)... */
export const ACCEPTED_STATUS = 'queued' satisfies MessageStatus;
/** ...unless its scheduledAt is still to come: then it waits in this one. */
export const SCHEDULED_STATUS = 'scheduled' satisfies MessageStatus;

/**
 * What ties a change to a delivery attempt, so that a duplicate or late job can neither move a
 * message backwards nor out of a final state:
 * - `next`: the change starts the attempt after the message's last one, and counts it;
 * - `current`: the change belongs to the message's current attempt.
 */
export type AttemptGuard = 'next' | 'current';

/** One arrow of docs/delivery-and-deliverability.md#statuses: a message in `from` may move to `to`, when its guard holds. */
export interface Edge {
  readonly from: MessageStatus;
  readonly to: MessageStatus;
  readonly attempt?: AttemptGuard;
}

/**
 * The status changes after acceptance (docs/delivery-and-deliverability.md#statuses), by the event that causes them. A status to come
 * is a row here, plus the MessageLifecycle operation that applies its event; a guard of a new kind
 * is a case of its own in `guardSql` and `permits`. Neither due nor cancel needs one: the queue holds a scheduled
 * message's job until its moment, and the cancel checks the owner under the row's lock.
 * `deferred → failed` happens through a last attempt: the message is claimed (→ sending) and that
 * attempt fails.
 */
export const TRANSITIONS = {
  /** A delivery job takes its message. */
  claim: [
    { from: 'queued', to: 'sending', attempt: 'next' },
    { from: 'deferred', to: 'sending', attempt: 'next' },
    // The same attempt again: its job came back (its worker died, or outlived the lease).
    { from: 'sending', to: 'sending', attempt: 'current' },
  ],
  /**
   * A delivery job found every recipient of its message on the owner's suppression list: the
   * attempt ends there, without SMTP. Guarded as the claim is, in its place (so a duplicate or
   * late job cannot suppress a message another attempt owns); `sending` is a job that came back
   * after its worker died, when an entry was added meanwhile.
   */
  suppress: [
    { from: 'queued', to: 'suppressed', attempt: 'next' },
    { from: 'deferred', to: 'suppressed', attempt: 'next' },
    { from: 'sending', to: 'suppressed', attempt: 'current' },
  ],
  /** The mail server answered an attempt: accepted, a temporary failure, or the end of trying. */
  finish: [
    { from: 'sending', to: 'sent', attempt: 'current' },
    { from: 'sending', to: 'deferred', attempt: 'current' },
    { from: 'sending', to: 'failed', attempt: 'current' },
  ],
  /**
   * A scheduled message's moment came: the worker took its first delivery job, which the queue
   * held until scheduledAt. No attempt guard: the claim that follows in the same transaction has one.
   */
  due: [{ from: 'scheduled', to: 'queued' }],
  /** Its owner canceled it before any attempt was under way (POST /user/messages/{id}/cancel). */
  cancel: [
    { from: 'scheduled', to: 'canceled' },
    { from: 'queued', to: 'canceled' },
    { from: 'deferred', to: 'canceled' },
  ],
  /** A report of a permanent failure came back for a message the relay had accepted (docs/delivery-and-deliverability.md). */
  bounce: [{ from: 'sent', to: 'bounced' }],
  /** A recipient complained (a feedback report); it may follow a bounce for another recipient. complained is final. */
  complain: [
    { from: 'sent', to: 'complained' },
    { from: 'bounced', to: 'complained' },
  ],
} as const satisfies Record<string, readonly Edge[]>;

export type TransitionName = keyof typeof TRANSITIONS;

/** The statuses an event may move a message to. */
export type TargetOf<N extends TransitionName> = (typeof TRANSITIONS)[N][number]['to'];

/** The statuses a message can be in, and the delivery attempts it has had. */
export interface MessageState {
  status: MessageStatus;
  attempts: number;
}

/**
 * Whether the event `name` may move a message in `state` to `to` for the given attempt: the
 * rule that guardSql() writes in SQL, for the code that must explain a refusal (a 409).
 */
export function permits(name: TransitionName, state: MessageState, to: MessageStatus, attempt?: number): boolean {
  return (TRANSITIONS[name] as readonly Edge[]).some(
    (edge) => edge.from === state.status && edge.to === to && attemptHolds(edge.attempt, state.attempts, attempt),
  );
}

function attemptHolds(guard: AttemptGuard | undefined, attempts: number, attempt: number | undefined): boolean {
  if (guard === 'next') return attempt === attempts + 1;
  if (guard === 'current') return attempt === attempts;
  return true;
}

/** The one status an event moves to, or undefined when the caller chooses among several. */
export function fixedTarget(name: TransitionName): MessageStatus | undefined {
  const targets = new Set<MessageStatus>(TRANSITIONS[name].map((edge) => edge.to));
  return targets.size === 1 ? [...targets][0] : undefined;
}

/** Whether the event starts a new attempt (and so sets the message's attempt count). */
export function countsAttempt(name: TransitionName): boolean {
  return (TRANSITIONS[name] as readonly Edge[]).some((edge) => edge.attempt === 'next');
}

/**
 * The WHERE condition of the event's UPDATE: `m` is the message, `c` the change, with
 * c.attempt and (when the event has several targets) c.status. Edges that differ only in their
 * source status share one disjunct, so the claim reads as it was written by hand.
 */
export function guardSql(name: TransitionName): string {
  const edges = TRANSITIONS[name] as readonly Edge[];
  const fixed = fixedTarget(name);
  const groups = new Map<string, { from: MessageStatus[]; to: MessageStatus[]; attempt?: AttemptGuard }>();
  for (const from of unique(edges.map((e) => e.from))) {
    for (const attempt of unique(edges.filter((e) => e.from === from).map((e) => e.attempt))) {
      const to = edges.filter((e) => e.from === from && e.attempt === attempt).map((e) => e.to);
      const key = `${attempt}|${to.join(',')}`;
      const group = groups.get(key) ?? { from: [], to, attempt };
      group.from.push(from);
      groups.set(key, group);
    }
  }
  const disjuncts = [...groups.values()].map(({ from, to, attempt }) =>
    [
      inList('m.status', from),
      ...(fixed ? [] : [inList('c.status', to)]),
      ...(attempt === 'next' ? ['m.delivery_attempts = c.attempt - 1'] : []),
      ...(attempt === 'current' ? ['m.delivery_attempts = c.attempt'] : []),
    ].join(' AND '),
  );
  return disjuncts.length === 1 ? disjuncts[0] : disjuncts.map((d) => `(${d})`).join('\n OR ');
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];
const inList = (column: string, statuses: MessageStatus[]) =>
  statuses.length === 1 ? `${column} = '${statuses[0]}'` : `${column} IN ${sqlList(statuses)}`;
