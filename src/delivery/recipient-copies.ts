import { addressOf } from '../platform/validation/mailbox';
import { recipientKey } from '../messages';
import type { OutgoingMail } from '../messages';
import { Mailer, Transaction } from './mailer/mailer';

/**
 * A message as one copy per recipient, to, cc and bcc alike, each with the headers of its own
 * (List-Unsubscribe names the recipient) and its envelope recipient alone; the To and Cc headers
 * are the message's in every copy. `positions` numbers the recipients as tokens do;
 * `envelopeFromOf` gives a copy its VERP envelope sender (docs/delivery-and-deliverability.md) when BOUNCE_DOMAIN is set.
 */
export function recipientCopies(
  mail: OutgoingMail,
  positions: ReadonlyMap<string, number>,
  headersOf: (position: number) => Record<string, string>,
  envelopeFromOf: (position: number) => string | undefined = () => undefined,
): OutgoingMail[] {
  return [...mail.to, ...mail.cc, ...mail.bcc].map((entry) => {
    const position = positions.get(recipientKey(entry))!;
    const envelopeFrom = envelopeFromOf(position);
    return {
      ...mail,
      headers: { ...mail.headers, ...headersOf(position) },
      copyFor: { address: addressOf(entry), position, ...(envelopeFrom && { envelopeFrom }) },
    };
  });
}

/** What a copy not started by the deadline comes to: a temporary failure, sent by a later attempt. */
export const OUT_OF_TIME = 'not attempted: the attempt ran out of time (it is retried)';

/**
 * Hands the copies over, each as the transactions the mailer makes of it (Mailer.deliver) and at
 * most `inFlight` at a time (the SMTP pool's size: more would only wait in the pool, each with its
 * MIME built), and gives their transactions in the order of the copies; decideAttempt decides what
 * they come to. No copy starts after `startBy` (performance.now()): those left are temporary
 * failures, so that one attempt ends within its job's lease however many recipients wait behind a slow server.
 */
export async function sendCopies(
  mailer: Mailer,
  copies: OutgoingMail[],
  inFlight: number,
  startBy = Infinity,
): Promise<Transaction[]> {
  const results: Transaction[][] = [];
  let next = 0;
  const lane = async () => {
    while (next < copies.length) {
      const index = next++;
      const { address } = copies[index].copyFor!;
      results[index] =
        performance.now() > startBy
          ? [{ recipients: [address], result: { error: new Error(OUT_OF_TIME) } }]
          : await mailer.deliver(copies[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, copies.length) }, lane));
  return results.flat();
}
