// The attempt decision's specs (src/delivery/attempt-decision*.spec.ts): recipients, transactions and
// replies as a mail server gives them, and decide(), the decision of an attempt over them.
import {
  AttemptInput,
  AttemptRecipient,
  decideAttempt,
  transactionResults,
} from '../../../src/delivery/attempt-decision';
import { MailDeliveryError, MailReceipt, Refusal, Route, Transaction } from '../../../src/delivery/mailer/mailer';

export const DELAYS = [30, 120];
export const UNKNOWN = '550 5.1.1 <bob@x.test>: Recipient address rejected: User unknown';
export const POLICY = '550 5.7.1 Rejected by policy';
export const GREYLISTED = '451 4.7.1 Greylisted';

/** The recipients an attempt tries, at positions 0, 1… in the order given. */
export const people = (...addresses: string[]): AttemptRecipient[] =>
  addresses.map((address, position) => ({ address, key: address.toLowerCase(), position }));
export const [a, b, c, d, e] = ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'];

export const receipt = (
  to: string[],
  reply = '250 2.0.0 Ok',
  rejected: Refusal[] = [],
  route?: Route,
): Transaction => ({
  recipients: to,
  result: { receipt: { reply, rejected, ...(route && { route }) } satisfies MailReceipt },
});
export const failure = (to: string[], error: unknown): Transaction => ({ recipients: to, result: { error } });
export const refusal = (address: string, reply: string, permanent = reply.startsWith('5')): Refusal => ({
  address,
  reply,
  permanent,
});
export const temporary = (message = GREYLISTED, command?: string, route?: Route) =>
  new MailDeliveryError(message, false, command, [], route);
export const permanent = (message: string, command?: string, refused: Refusal[] = []) =>
  new MailDeliveryError(message, true, command, refused);

/** One copy per recipient: each recipient's own transaction. */
export const copy = (address: string, reply: string | MailDeliveryError) =>
  typeof reply === 'string' ? receipt([address], reply) : failure([address], reply);

export function decide(
  recipients: AttemptRecipient[],
  transactions: Transaction[],
  fields: Partial<Omit<AttemptInput, 'recipients' | 'transactions'>> = {},
) {
  return decideAttempt({
    recipients,
    attempt: 1,
    copies: false,
    retryDelays: DELAYS,
    transactions: transactionResults(transactions, recipients),
    ...fields,
  });
}
export const statuses = (decision: ReturnType<typeof decide>) => decision.fates.map((f) => [f.key, f.status]);
