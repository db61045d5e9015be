import { deliveryOrder, recipientKey } from '../messages';

/**
 * Each recipient's position in a stored message's delivery order, to, then cc, then bcc, keyed
 * by address key (intake keeps the keys distinct): the number a recipient token carries
 * (RecipientRef), which must not shift when suppressed recipients are left out.
 */
export function recipientPositions(message: {
  recipients: string[];
  cc: string[] | null;
  bcc: string[] | null;
}): Map<string, number> {
  return new Map(deliveryOrder(message).map((entry, position) => [recipientKey(entry), position]));
}
