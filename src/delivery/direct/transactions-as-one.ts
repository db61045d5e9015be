import { MailDeliveryError, MailReceipt, Refusal, Transaction } from '../mailer/mailer';
import { classify } from '../mailer/smtp.mailer';

/**
 * A mail's transactions (one per recipient domain) as the one result Mailer.send gives: a single
 * transaction's as it is; several folded into a receipt when any accepted the mail, the other
 * domains' recipients among its refusals with their domain's reply (a 4xx one is tried again,
 * as a recipient refused for now), else into one error, permanent only when every domain's is,
 * and a refusal at RCPT TO when every domain's was.
 */
export function asOneResult(transactions: Transaction[]): MailReceipt {
  if (transactions.length === 1) {
    const [{ result }] = transactions;
    if ('receipt' in result) return result.receipt;
    throw result.error;
  }
  const receipts = transactions.flatMap(({ result }) => ('receipt' in result ? [result.receipt] : []));
  const failed = transactions.flatMap(({ recipients, result }) =>
    'error' in result ? [{ recipients, error: asDeliveryError(result.error) }] : [],
  );
  const refusals = failed.flatMap(({ recipients, error }) => refusalsFor(recipients, error));
  if (receipts.length > 0)
    return { ...receipts[0], rejected: [...receipts.flatMap((receipt) => receipt.rejected), ...refusals] };
  const permanent = failed.every(({ error }) => error.permanent);
  const atRcpt = failed.every(({ error }) => error.command === 'RCPT TO');
  throw new MailDeliveryError(
    failed.map(({ error }) => error.message).join('; '),
    permanent,
    atRcpt ? 'RCPT TO' : undefined,
    atRcpt ? refusals : [],
  );
}

function asDeliveryError(error: unknown): MailDeliveryError {
  return error instanceof MailDeliveryError ? error : classify(error);
}

/** A failed domain's recipients as refusals: each its own when the server gave one, else the domain's reply. */
function refusalsFor(recipients: string[], error: MailDeliveryError): Refusal[] {
  return recipients.map(
    (address) =>
      error.refused.find((refusal) => refusal.address === address) ?? {
        address,
        reply: error.message,
        permanent: error.permanent,
      },
  );
}
