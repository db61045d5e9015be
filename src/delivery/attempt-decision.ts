import { classify } from '../deliverability';
import type { FateChange } from '../messages';
import { addressKey, asciiAddressKey } from '../platform/mail/addresses';
import type { CopiesProgress } from '../platform/queue/delivery-queue';
import { retryHintSeconds } from '../platform/smtp/retry-hint';
import { MailDeliveryError, Route, Transaction } from './mailer/mailer';

/** One recipient an attempt tried: its address as delivered, its address key and its position (recipient-positions.ts). */
export interface AttemptRecipient {
  address: string;
  key: string;
  position: number;
}

/** What one transaction made of one of its recipients. */
export interface RecipientResult {
  position: number;
  /** The server took it for this recipient. */
  accepted: boolean;
  /** The reply that decided this recipient: the transaction's, or the recipient's own refusal at RCPT TO. */
  reply: string;
  /** Refused with a 5xx reply (never retried); false when accepted. */
  permanent: boolean;
  /** The SMTP command a refusal answered; absent when no server answered (nothing was handed over). */
  command?: string;
}

/** One transaction of the attempt (Mailer.deliver), read per recipient: transactionResults. */
export interface TransactionResult {
  /** The transaction's own reply, its receipt's or its error's: what the message's history names. */
  reply: string;
  /** Its receipt came back (whatever it refused at RCPT TO); false: it failed as a whole. */
  accepted: boolean;
  /** Its failure is a 5xx (MailDeliveryError.permanent); false when accepted. */
  permanent: boolean;
  /** Where it went, when a server answered (absent for the outbox). */
  route?: Route;
  recipients: RecipientResult[];
}

/** Everything the outcome of an attempt depends on (decideAttempt). */
export interface AttemptInput {
  /** The recipients this attempt tried, in delivery order (to, cc, bcc). */
  recipients: AttemptRecipient[];
  attempt: number;
  /**
   * True: one copy per recipient (bulk, VERP), the history counting copies and a copy that failed
   * whole named by its own error; false: the recipients share the mail's transactions.
   */
  copies: boolean;
  /** How far earlier attempts got, when this one sends only the recipients they left pending. */
  progress?: CopiesProgress;
  transactions: TransactionResult[];
  /** DELIVERY_RETRY_DELAYS: `retryDelays[attempt - 1]` seconds after attempt `attempt`. */
  retryDelays: readonly number[];
}

/** What an attempt comes to (docs/delivery-and-deliverability.md#statuses). */
export interface AttemptDecision {
  status: 'sent' | 'deferred' | 'failed';
  /** The message's history entry. */
  detail: string;
  /** Set when deferred: the delay before the next attempt (0 is a retry too). */
  retryAfterSeconds?: number;
  /** Set when deferred and the next attempt must send only some recipients: those, and how many were accepted so far. */
  copies?: CopiesProgress;
  /** Each tried recipient's fate. */
  fates: FateChange[];
  /** Address keys refused as addresses that do not exist (docs/delivery-and-deliverability.md): to suppress as hard_bounce. */
  hardBounces: string[];
}

const replyOf = (error: unknown) => (error as Error | undefined)?.message || 'the transport failed';

/**
 * A mailer's transactions read per recipient, each found by position among `recipients`: a
 * recipient refused at RCPT TO by its own refusal (SMTP names an internationalized domain in
 * A-labels, so they are matched by asciiAddressKey), the others by the transaction's result.
 */
export function transactionResults(transactions: Transaction[], recipients: AttemptRecipient[]): TransactionResult[] {
  const positions = new Map(recipients.map((r) => [asciiAddressKey(r.key), r.position]));
  const positionOf = (address: string) => positions.get(asciiAddressKey(addressKey(address)));
  return transactions.map(({ recipients: envelope, result }) => {
    const error = 'error' in result ? result.error : undefined;
    const delivery = error instanceof MailDeliveryError ? error : undefined;
    const refusals = 'receipt' in result ? result.receipt.rejected : (delivery?.refused ?? []);
    const refused = new Map(refusals.map((r) => [positionOf(r.address), r]));
    const reply = 'receipt' in result ? result.receipt.reply : replyOf(error);
    const permanent = delivery?.permanent ?? false;
    const route = 'receipt' in result ? result.receipt.route : delivery?.route;
    const known = envelope.map(positionOf).filter((p): p is number => p !== undefined);
    return {
      reply,
      accepted: 'receipt' in result,
      permanent,
      ...(route && { route }),
      recipients: known.map((position): RecipientResult => {
        const refusal = refused.get(position);
        if (refusal)
          return { position, accepted: false, reply: refusal.reply, permanent: refusal.permanent, command: 'RCPT TO' };
        if ('receipt' in result) return { position, accepted: true, reply, permanent: false };
        return { position, accepted: false, reply, permanent, ...(delivery?.command && { command: delivery.command }) };
      }),
    };
  });
}

/**
 * docs/delivery-and-deliverability.md: a server's refusal of a recipient is read by the report reader's rule, and suppresses
 * only when it is about the address itself. Only a refusal at RCPT TO names one recipient: a reply
 * to MAIL FROM is about our sender, one to DATA is a content filter speaking.
 */
export function isAddressFailure(reply: string, command: string | undefined): boolean {
  if (command?.toUpperCase() !== 'RCPT TO') return false;
  return classify({ diagnostic: reply, context: `in reply to ${command} command` }) === 'bounce';
}

/** A reply with where it went: the host that gave it and whether TLS protected the session (direct delivery). */
function withRoute(reply: string, route: Route | undefined): string {
  if (!route) return reply;
  return `${reply} (${route.host}, ${route.tls ? 'TLS' : 'no TLS'})`;
}

const named = (label: string, entries: string[]) => (entries.length > 0 ? ` (${label}: ${entries.join(', ')})` : '');

/**
 * The delivery rule (docs/delivery-and-deliverability.md#statuses), for one attempt whatever its
 * transactions: a recipient accepted is sent and never sent again; one refused with a 5xx is failed
 * at once (and suppressed when the refusal is about its address); one refused otherwise (4xx,
 * timeout, connection or transport failure) is deferred while DELIVERY_RETRY_DELAYS has a delay for
 * this attempt, and the next attempt sends those alone (`copies`); once none is left it is failed.
 * The message is deferred while any recipient is; then sent when any recipient was ever accepted,
 * failed when none was. A deferring reply that names when to come back ("try again in 5 minutes")
 * is honoured when within the schedule (retryAfter).
 */
export function decideAttempt(input: AttemptInput): AttemptDecision {
  const { recipients, attempt, progress, transactions, retryDelays } = input;
  const byPosition = new Map(recipients.map((r) => [r.position, r]));
  const results: Result[] = transactions.flatMap((transaction) =>
    transaction.recipients
      .filter((r) => byPosition.has(r.position))
      // A copy that failed whole is that copy's answer, its reply naming where it came from (a
      // relay's error ends with it), even when it also names the copy's refusal at RCPT TO.
      .map((r) => ({
        ...r,
        ...byPosition.get(r.position)!,
        ...(input.copies && !transaction.accepted && { reply: transaction.reply }),
        transaction,
      })),
  );
  const accepted = results.filter((r) => r.accepted);
  const temporary = results.filter((r) => !r.accepted && !r.permanent);
  const retry = temporary.length > 0 && attempt <= retryDelays.length;
  const acceptedInAll = (progress?.accepted ?? 0) + accepted.length;
  const told = { retry, attempt, progress, acceptedInAll };

  const hardBounces: string[] = [];
  const fates = results.map(({ position, key, accepted: ok, reply, permanent, command, transaction }): FateChange => {
    const route = transaction.route && { route: transaction.route };
    // The recipient's history entry names the server that answered it too (docs/delivery-and-deliverability.md#direct-delivery).
    const answer = withRoute(reply, transaction.route);
    if (ok) return { position, key, status: 'sent', detail: answer, ...route };
    if (!permanent && retry) return { position, key, status: 'deferred', detail: answer, ...route };
    // Read from the reply alone: the route is ours, not the server's words.
    const bounce = permanent && isAddressFailure(reply, command);
    if (bounce) hardBounces.push(key);
    // Refused by a server (docs/api.md#reading-back's rates), for the address itself or another reason; unmarked
    // when no server answered (a connection that never got through is not a hand-over).
    const refused = command === undefined ? {} : { refused: bounce ? ('address' as const) : ('other' as const) };
    const detail = permanent ? answer : `${answer} (gave up after ${attempt} attempts)`;
    return { position, key, status: 'failed', detail, ...refused, ...route };
  });

  const detail = input.copies ? copiesDetail(results, told) : wholeDetail(transactions, results, told);
  if (retry) {
    // Every recipient deferred by its transaction's own failure, none by a refusal of its own and
    // none settled: the next attempt sends what this one did, and needs no progress to say so.
    const asBefore =
      progress === undefined &&
      !input.copies &&
      temporary.length === results.length &&
      temporary.every((r) => r.reply === r.transaction.reply);
    return {
      status: 'deferred',
      detail,
      retryAfterSeconds: retryAfter(temporary, attempt, retryDelays),
      ...(!asBefore && { copies: { pending: temporary.map((r) => r.position), accepted: acceptedInAll } }),
      fates,
      hardBounces,
    };
  }
  return { status: acceptedInAll > 0 ? 'sent' : 'failed', detail, fates, hardBounces };
}

type Result = RecipientResult & AttemptRecipient & { transaction: TransactionResult };
type Told = { retry: boolean; attempt: number; progress?: CopiesProgress; acceptedInAll: number };

/**
 * The delay before the next attempt. Each deferring reply gets the schedule's delay, or the later
 * moment it names ("try again in 5 minutes": retryHintSeconds) when that is within the schedule
 * (at most its largest delay): never sooner than the schedule, so that a server saying "in 1
 * minute" every time cannot use the retries up in minutes. Across the deferred transactions (direct
 * delivery's domains) the shortest wins: one domain's long wait never holds another's recipients.
 */
function retryAfter(temporary: Result[], attempt: number, retryDelays: readonly number[]): number {
  const scheduled = retryDelays[attempt - 1];
  const longest = Math.max(...retryDelays);
  const delays = temporary.map(({ reply }) => {
    const hint = retryHintSeconds(reply);
    return hint !== undefined && hint <= longest ? Math.max(hint, scheduled) : scheduled;
  });
  return Math.min(...delays);
}

/** A recipient's reply, with where it went when it is its transaction's own (a refusal at RCPT TO is the recipient's alone). */
const said = (r: Result) => (r.reply === r.transaction.reply ? withRoute(r.reply, r.transaction.route) : r.reply);

/**
 * One copy per recipient: how many copies were accepted, by this attempt and in all, with the
 * first one's reply; the copies refused for now (pending) and for good (refused), each with its reply.
 */
function copiesDetail(results: Result[], { retry, attempt, progress, acceptedInAll }: Told): string {
  const accepted = results.filter((r) => r.accepted);
  const counted = progress
    ? `${accepted.length} of the ${results.length} pending copies accepted (${acceptedInAll} in all), one per recipient`
    : `${accepted.length} of ${results.length} copies accepted, one per recipient`;
  const head = accepted.length > 0 ? `${counted}: ${said(accepted[0])}` : counted;
  const failures = results.filter((r) => !r.accepted);
  const gaveUp = retry ? '' : `, gave up after ${attempt} attempts`;
  const refused = failures
    .filter((r) => !retry || r.permanent)
    .map((r) => `${r.address} (${said(r)}${r.permanent ? '' : gaveUp})`);
  const pending = retry ? failures.filter((r) => !r.permanent).map((r) => `${r.address} (${said(r)})`) : [];
  return `${head}${named('pending', pending)}${named('refused', refused)}`;
}

/**
 * Recipients sharing transactions: each transaction's reply (a failure not retried saying after
 * how many attempts it gave up), then, while some are retried, those refused for now and for good
 * with their replies; else the addresses of those refused, when some were accepted.
 */
function wholeDetail(transactions: TransactionResult[], results: Result[], { retry, attempt }: Told): string {
  const head = transactions
    .map((t) => {
      const gaveUp = !t.accepted && !t.permanent && !retry ? ` (gave up after ${attempt} attempts)` : '';
      return `${withRoute(t.reply, t.route)}${gaveUp}`;
    })
    .filter((reply, index, all) => all.indexOf(reply) === index)
    .join('; ');
  // A retry whose pending recipients have all been left out since (suppressed) tried none.
  if (head === '') return 'no recipient left to send to';
  const failures = results.filter((r) => !r.accepted);
  if (retry) {
    // All refused for now by their transactions' failures alone: those say it all.
    if (failures.every((r) => !r.permanent && r.reply === r.transaction.reply) && failures.length === results.length)
      return head;
    const [forNow, forGood] = [false, true].map((p) => failures.filter((r) => r.permanent === p));
    const list = (rs: Result[]) => rs.map((r) => `${r.address} (${r.reply})`);
    return `${head}${named('pending', list(forNow))}${named('refused', list(forGood))}`;
  }
  if (!results.some((r) => r.accepted)) return head;
  return `${head}${named(
    'refused',
    failures.map((r) => r.address),
  )}`;
}
