/** The nodemailer codes of a relay that could not be reached or spoken to: another relay may do better. */
const RELAY_TROUBLE = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROTOCOL',
  'EAUTH',
  'ENOAUTH',
  'EPROXY',
]);

/**
 * Whether a relay's failure moves the message on to the next relay within the same attempt
 * (docs/delivery-and-deliverability.md#relays-and-failover): a connection failure, a timeout, a
 * failed login, or a 4xx reply for the whole transaction (greeting, MAIL FROM, DATA, or every
 * recipient refused for now). A 5xx reply is the answer, the message's or a recipient's, and is
 * asked of no other relay; so is a failure of the message itself (it would fail the same anywhere).
 */
export function movesToNextRelay(error: unknown): boolean {
  const { responseCode, code, rejectedErrors } = (error ?? {}) as {
    responseCode?: number;
    code?: string;
    rejectedErrors?: { responseCode?: number }[];
  };
  // Every recipient refused, some of them for good: those refusals are answers, and the
  // recipients refused for now are retried on the next attempt, as with a single relay.
  if ((rejectedErrors ?? []).some((r) => typeof r.responseCode === 'number' && r.responseCode >= 500)) return false;
  if (typeof responseCode === 'number') {
    if (responseCode >= 400 && responseCode < 500) return true;
    // A 5xx about our own login or TLS says nothing of the message (smtp.mailer.ts's classify).
    if (responseCode === 530 || code === 'EAUTH') return true;
    return responseCode < 400;
  }
  return code !== undefined && RELAY_TROUBLE.has(code);
}
