import { classify } from '../deliverability';
import { addressKey, asciiAddressKey } from '../platform/mail/addresses';
import { addressOf } from '../platform/validation/mailbox';
import type { FateChange } from '../messages';
import { recipientKey } from '../messages';
import type { CopyResult } from './copies-outcome';
import type { AttemptOutcome, HandOverResult } from './delivery-retry-policy';
import { MailDeliveryError, Refusal } from './mailer/mailer';

/** The recipients a whole message's relay refused at RCPT TO: with its receipt, or all of them in its error. */
export function refusalsOf(result: HandOverResult): Refusal[] {
  if ('receipt' in result) return result.receipt.rejected;
  return result.error instanceof MailDeliveryError ? result.error.refused : [];
}

/**
 * A relay's refusals by the ASCII address key: SMTP names an internationalized domain in A-labels
 * (`gone@xn--bcher-kva.example`), so a stored recipient is looked up by asciiAddressKey of its key.
 */
function refusalsByKey(refusals: Refusal[]): Map<string, Refusal> {
  return new Map(refusals.map((r) => [asciiAddressKey(addressKey(r.address)), r]));
}

/** What an attempt did to each recipient it tried (docs/delivery-and-deliverability.md#statuses "Recipients"). */
export interface RecipientOutcomes {
  fates: FateChange[];
  /** The address keys the relay refused as addresses that do not exist (docs/delivery-and-deliverability.md): to suppress as hard_bounce. */
  hardBounces: string[];
}

/**
 * docs/delivery-and-deliverability.md: a relay's refusal of a recipient is read by the report reader's rule, and suppresses
 * only when it is about the address itself. Only a refusal at RCPT TO names one recipient: a reply
 * to MAIL FROM is about our sender, one to DATA is a content filter speaking.
 */
export function isAddressFailure(reply: string, command: string | undefined): boolean {
  if (command?.toUpperCase() !== 'RCPT TO') return false;
  return classify({ diagnostic: reply, context: `in reply to ${command} command` }) === 'bounce';
}

/**
 * A message sent as one SMTP transaction for all its recipients (`entries`, as delivered, with
 * their positions): accepted ones are sent with the reply, those refused at RCPT TO failed with
 * their own reply (refused for now only once no retry is left: asCopyResults); a failed
 * or deferred attempt is every recipient's, with the refusal of each when the server gave one.
 */
export function wholeOutcomes(
  entries: string[],
  positions: ReadonlyMap<string, number>,
  result: HandOverResult,
  outcome: AttemptOutcome,
): RecipientOutcomes {
  const error = 'error' in result ? result.error : undefined;
  const refused = refusalsByKey(refusalsOf(result));
  const fates = entries.map((entry): FateChange => {
    const key = recipientKey(entry);
    const position = positions.get(key)!;
    const refusal = refused.get(asciiAddressKey(key));
    if ('receipt' in result) {
      return refusal
        ? {
            position,
            key,
            status: 'failed',
            detail: refusal.permanent ? refusal.reply : `${refusal.reply} (no retry left)`,
          }
        : { position, key, status: 'sent', detail: result.receipt.reply };
    }
    return { position, key, status: outcome.status, detail: refusal?.reply ?? outcome.detail };
  });
  const failedNow = 'receipt' in result || outcome.status === 'failed';
  const refusalOf = (key: string) => refused.get(asciiAddressKey(key));
  const command = (key: string) => (refusalOf(key) ? 'RCPT TO' : (error as MailDeliveryError | undefined)?.command);
  const hardBounces = failedNow
    ? fates
        .filter((f) => f.status === 'failed' && (refusalOf(f.key)?.permanent ?? true))
        .filter((f) => isAddressFailure(refusalOf(f.key)?.reply ?? f.detail!, command(f.key)))
        .map((f) => f.key)
    : [];
  return { fates: fates.map((f) => withRefusal(f, command(f.key), hardBounces)), hardBounces };
}

/**
 * A failed recipient marked with who refused it (docs/api.md#reading-back's rates): the receiving server, for the
 * address itself (one of hardBounces: docs/delivery-and-deliverability.md#bounces-and-complaints, read once, at the refusal) or for another reason;
 * unmarked when no server answered (a connection that never got through is not a hand-over).
 */
function withRefusal(fate: FateChange, command: string | undefined, hardBounces: string[]): FateChange {
  if (fate.status !== 'failed' || command === undefined) return fate;
  return { ...fate, refused: hardBounces.includes(fate.key) ? 'address' : 'other' };
}

/**
 * A message sent as one copy per recipient: each copy's own result. `outcome` is copiesOutcome's:
 * when it defers the message, copies refused for now are deferred (tried again), else failed.
 */
export function copyOutcomes(results: CopyResult[], outcome: AttemptOutcome, attempt: number): RecipientOutcomes {
  const retry = outcome.status === 'deferred';
  const hardBounces: string[] = [];
  const fates = results.map(({ address, position, result }): FateChange & { command?: string } => {
    const key = addressKey(address);
    if ('receipt' in result) {
      const refusal = result.receipt.rejected[0];
      if (!refusal) return { position, key, status: 'sent', detail: result.receipt.reply };
      if (refusal.permanent && isAddressFailure(refusal.reply, 'RCPT TO')) hardBounces.push(key);
      return { position, key, status: 'failed', detail: refusal.reply, command: 'RCPT TO' };
    }
    const { error } = result;
    const detail = (error as Error | undefined)?.message || 'the transport failed';
    const command = error instanceof MailDeliveryError ? error.command : undefined;
    if (error instanceof MailDeliveryError && error.permanent) {
      if (isAddressFailure(detail, command)) hardBounces.push(key);
      return { position, key, status: 'failed', detail, command };
    }
    if (retry) return { position, key, status: 'deferred', detail };
    return { position, key, status: 'failed', detail: `${detail} (gave up after ${attempt} attempts)`, command };
  });
  return { fates: fates.map(({ command, ...f }) => withRefusal(f, command, hardBounces)), hardBounces };
}

/**
 * A whole message's result as one result per recipient, as if each had had its own copy: those
 * refused at RCPT TO as that refusal, the others as the message's receipt (or, should the relay
 * have refused all and named not each, its error). For an attempt that refused some recipients
 * for now, whose retry sends those alone (copiesOutcome), as the copies of bulk or VERP mail are retried.
 */
export function asCopyResults(
  entries: string[],
  positions: ReadonlyMap<string, number>,
  result: HandOverResult,
): CopyResult[] {
  const refused = refusalsByKey(refusalsOf(result));
  return entries.map((entry) => {
    const key = recipientKey(entry);
    const refusal = refused.get(asciiAddressKey(key));
    return {
      address: addressOf(entry),
      position: positions.get(key)!,
      result: refusal
        ? { error: new MailDeliveryError(refusal.reply, refusal.permanent, 'RCPT TO') }
        : 'receipt' in result
          ? { receipt: { reply: result.receipt.reply, rejected: [] } }
          : result,
    };
  });
}
