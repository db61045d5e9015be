import type { Message } from '../../api/messages';

/** Recipient fates the relay accepted: a cancel keeps them (docs/delivery-and-deliverability.md#statuses). */
const ACCEPTED = new Set(['sent', 'bounced', 'complained']);
/** Recipient fates still to be tried: a cancel makes them canceled. */
const WAITING = new Set(['pending', 'deferred']);

/**
 * What Cancel asks before it cancels (docs/delivery-and-deliverability.md#statuses): a partly delivered message cannot be unsent, so the
 * question names who already has it and how many will not get it.
 */
export function cancelQuestion(message: Message): string {
  const delivered = message.recipients.filter((r) => ACCEPTED.has(r.status)).map((r) => r.email);
  if (delivered.length === 0) return 'Cancel this message? It will not be sent.';
  const waiting = message.recipients.filter((r) => WAITING.has(r.status)).length;
  const already = `Cancel this message? Already delivered to ${delivered.join(', ')}`;
  if (waiting === 0) return `${already}.`;
  return `${already}; ${waiting === 1 ? 'the other recipient' : `the other ${waiting} recipients`} will not get it.`;
}
