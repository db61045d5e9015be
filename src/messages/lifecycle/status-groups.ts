import { MESSAGE_STATUSES, type MessageStatus } from '../message-status';
import { type Edge, TRANSITIONS, type TransitionName } from './transitions';

/** The statuses some event of `names` moves a message out of, in MESSAGE_STATUSES' order. */
function leftBy(...names: TransitionName[]): readonly MessageStatus[] {
  const sources = new Set(names.flatMap((name) => (TRANSITIONS[name] as readonly Edge[]).map((edge) => edge.from)));
  return MESSAGE_STATUSES.filter((status) => sources.has(status));
}

/**
 * Statuses whose delivery is still to come or under way: those a delivery event (its moment, a
 * claim, a suppression, the mail server's answer) moves on. A report cannot be about such a
 * message yet; retention keeps it past its window until its delivery ends.
 */
export const UNFINISHED_STATUSES = leftBy('due', 'claim', 'suppress', 'finish');

/** Statuses whose delivery has ended: the relay's answer, a cancel or a suppression settled it. */
export const FINISHED_STATUSES: readonly MessageStatus[] = MESSAGE_STATUSES.filter(
  (status) => !UNFINISHED_STATUSES.includes(status),
);

/** Statuses from which its owner may cancel a message (POST /user/messages/{id}/cancel). */
export const CANCELABLE_STATUSES = leftBy('cancel');

/** The groups by name, as the OpenAPI document publishes them for clients. */
export const MESSAGE_STATUS_GROUPS = {
  UnfinishedMessageStatus: UNFINISHED_STATUSES,
  FinishedMessageStatus: FINISHED_STATUSES,
  CancelableMessageStatus: CANCELABLE_STATUSES,
} as const;
