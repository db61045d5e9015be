import { MailServer } from './servers/mail-server';
import { failureStatusIn, parseStatus, replyClassOf, StatusCode } from './status-code';

export type Outcome = 'bounce' | 'soft' | 'delay' | 'other';

/** What a report says about one recipient, before it is classified. */
export interface Failure {
  /** RFC 3464 Action (`failed`, `delayed`, `delivered`, `relayed`, `expanded`), when given. */
  action?: string;
  /** RFC 3463 status code, when given. */
  status?: string;
  /** The remote server's words (Diagnostic-Code, or the bounce's text about this recipient). */
  diagnostic: string;
  /** Whether the report as a whole says the failure is permanent or temporary, when it does. */
  permanence?: 'permanent' | 'temporary';
  /** The report's human-readable text, read for the SMTP command the refusal answered. */
  context?: string;
  /** The servers the report was identified as written by or quoting (servers/): their own words count. */
  servers?: MailServer[];
}

/*
 * Phrases saying the failure is NOT about the address: the address exists (or may) and the
 * mail was refused for another reason. They win over an address status code, because the worst
 * mistake is suppressing a good address (a false hard bounce).
 */
// Full mailbox: Postfix/Dovecot "mailbox full", "Disk quota exceeded", Exchange "mailbox is full",
// Gmail "The email account that you tried to reach is over quota", Sendmail "Not enough disk space".
const MAILBOX_FULL =
  /mailbox (?:is )?full|over ?quota|quota exceeded|exceeded (?:the )?(?:storage|quota)|insufficient (?:system )?storage|out of storage|disk (?:full|space)/i;
// The receiving system's own trouble: Postfix "Command output:" of a local delivery program
// (procmail "Couldn't create …"), loops, configuration and I/O errors.
const SYSTEM_TROUBLE =
  /command output|couldn'?t create|cannot create|permission denied|i\/o error|mail loop|loops back|config(?:uration)? error|system error|internal error/i;
const NOT_ABOUT_THE_ADDRESS: RegExp[] = [
  MAILBOX_FULL,
  SYSTEM_TROUBLE,
  // Spam, content and reputation blocks: Gmail "unsolicited", Spamhaus/RBL listings, Yahoo
  // "[TSS04] Messages from … temporarily deferred due to unexpected volume or user complaints".
  /spam|unsolicited|blacklist|blocklist|block list|denylist|\brbl\b|reputation|blocked|banned|junk|virus|malware|phish|content rejected|message content/i,
  // Authentication and policy: DMARC, SPF, DKIM failures; Exchange/O365 "Access denied";
  // "policy" (Postfix restrictions, Gmail 5.7.x), relay refusals.
  /\bdmarc\b|\bspf\b|\bdkim\b|authenticat|access denied|policy|not permitted|not allowed|relay(?:ing)? (?:access )?(?:denied|not permitted|prohibited)|unable to relay|relay not/i,
  // The message itself: too large, too many recipients, rate limits.
  /too (?:large|big|many)|size (?:limit|exceed)|exceeds? (?:the )?(?:maximum|size|limit)|rate limit|throttl|try again later/i,
  // The account exists but is switched off (Yahoo "account has been disabled or discontinued",
  // Gmail "account … is disabled"): perhaps for good, but the address itself is real.
  /suspend|disabled|inactive|deactivated|frozen|locked/i,
  // A refusal with a reason of the server's own: Facebook "Refused due to recipient preferences",
  // La Poste "Service refusé".
  /\brefused\b/i,
  // Refusals of OUR address (X.1.7/X.1.8 in words): Postfix "Sender address rejected", Exim
  // "sender verify failed", a MAIL FROM refusal.
  /sender (?:address|domain|verif)|mail from/i,
];
/*
 * What the report's human-readable text may overrule a diagnostic with: only facts about the
 * mailbox and the receiving system (that text also quotes the original's headers and boilerplate
 * about policies, so the other phrases would misfire there).
 */
const NOT_ABOUT_THE_ADDRESS_IN_TEXT: RegExp[] = [MAILBOX_FULL, SYSTEM_TROUBLE];

/*
 * The refusal answered DATA or the end of data: the server had accepted the recipient at RCPT TO
 * (RFC 5321 §3.3), so whatever it says then is a content filter speaking, not a missing address
 * (Japanese mobile carriers, for one, answer "550 Unknown user" at DATA to mail their users filter).
 * Postfix writes "(in reply to end of DATA command)", Exim "after end of data" or "after DATA".
 * Sendmail's transcript is not read: with pipelining it prints RCPT replies after ">>> DATA".
 */
const REFUSED_AFTER_DATA: RegExp[] = [/in reply to (?:end of )?data command/i, /after (?:end of )?data\b/i];

/*
 * The refusal answered RCPT TO, where a server says whether it takes mail for the recipient
 * (RFC 5321 §3.3): Postfix "(in reply to RCPT TO command)", Exim "after RCPT TO:<…>", Yahoo's
 * "[RCPT_TO]" tag, Sendmail's transcript ">>> RCPT To:<…>" answered by "<<< 5xx".
 */
const REFUSED_AT_RCPT: RegExp[] = [
  /in reply to rcpt to command/i,
  /after rcpt to\b/i,
  /\[rcpt_to\]/i,
  /^[ \t]*>>> rcpt to:.*\r?\n[ \t]*<<< 5/im,
  // qmail "Sorry, no SMTP connection got far enough; most progress was RCPT TO response", DragonFly's
  // dma "… did not like our RCPT TO: 550 …", the "SMTP:RCPT host 192.0.2.8: 553 …" of some gateways'
  // notices, Oracle Messaging Server "Reason: Remote SMTP server has rejected address".
  /most progress was rcpt to response|did not like our rcpt to|\bsmtp:rcpt host\b|remote smtp server has rejected address/i,
];

/*
 * Phrases saying the address itself does not exist, or its domain does not or takes no mail.
 */
const ADDRESS_DOES_NOT_EXIST: RegExp[] = [
  // Postfix "User unknown in local recipient table", Sendmail "User unknown", Exim "unknown user",
  // cPanel's Exim "No Such User Here", Courier "No such user", Dovecot "user doesn't exist".
  /user unknown|unknown user|no such (?:user|mailbox|recipient|address|account)|user (?:does not|doesn'?t) exist|user not found/i,
  // qmail "Sorry, no mailbox here by that name. (#5.1.1)"; Exchange "RESOLVER.ADR.RecipNotFound"
  // and "Recipient not found by SMTP address lookup"; Gmail "The email account that you tried to
  // reach does not exist"; Yahoo "This user doesn't have a yahoo.com account".
  /no mailbox here|recipnotfound|recipient not found|(?:account|mailbox|address|recipient) (?:that you tried to reach )?(?:does not|doesn'?t) exist|doesn'?t have an? [\w.-]+ account|unknown (?:recipient|mailbox)|recipient unknown|invalid (?:recipient|mailbox)|mailbox not found/i,
  // The domain: Postfix "Host or domain name not found" (5.4.4 when permanent), "Domain not
  // found", Exim "Unrouteable address", RFC 7505 null MX "does not accept mail", qmail "Sorry, I
  // couldn't find any host named …" and "… couldn't find a mail exchanger or IP address",
  // Oracle Messaging Server "Illegal host/domain name found".
  /host or domain name not found|domain (?:name )?not found|no such domain|domain (?:does not|doesn'?t) exist|unrouteable address|does not accept mail|null mx|couldn'?t find (?:any host|a mail exchanger)|illegal host\/domain/i,
  // Moved (X.1.6): Sendmail "User has moved; please try <new address>".
  /has moved|no longer (?:at|with|valid)/i,
];

/**
 * bounce / soft / delay / other for one recipient. Confirmations and delays follow the Action;
 * a permanent failure is a `bounce` only when both nothing in the diagnostic says otherwise and
 * the status code or the diagnostic says the address itself is bad.
 */
export function classify(failure: Failure): Outcome | undefined {
  const action = failure.action?.toLowerCase();
  const codes = [parseStatus(failure.status), failureStatusIn(failure.diagnostic)].filter((code) => code !== undefined);
  const status = codes[0];
  if (action === 'delivered' || action === 'relayed' || action === 'expanded' || status?.klass === 2) return 'other';
  if (action === 'delayed') return 'delay';
  const klass = status?.klass ?? replyClassOf(failure.diagnostic);
  const permanent = action === 'failed' || klass === 5 || (action === undefined && failure.permanence === 'permanent');
  if (!permanent) return klass === 4 || failure.permanence === 'temporary' ? 'delay' : undefined;
  // A server that gave up after retrying a temporary failure (Action: failed or a bounce saying
  // so, with a 4.x.x): bounced, address kept; unless it retried an address failure that the
  // code and the words both name (Postfix "450 4.1.1 … User unknown in virtual alias table").
  if (klass === 4) return isStillUnknownAfterRetries(codes, failure) ? 'bounce' : 'soft';
  return isAboutTheAddress(codes, failure) ? 'bounce' : 'soft';
}

/*
 * A relay that gave up: it kept the message for its retry period and then stopped. Besides a
 * permanent report carrying a 4.x.x, the words say so: Amazon SES and Exchange "Message expired"
 * / "QUEUE.Expired", OpenSMTPD "Envelope expired", qmail "this message has been in the queue too
 * long", DragonFly's dma "Could not deliver for the last … seconds. Giving up.", Gmail "The
 * recipient server did not accept our requests to connect", KDDI "Your message was not delivered
 * within 0 days and 1 hours. Remote host is not responding.", and the connection failures a relay
 * only reports once it stops retrying ("Connection timed out", Zoho "Host not reachable").
 */
const GAVE_UP_AFTER_RETRIES =
  /\bexpired\b|queue too long|could not deliver for the last|giving up|did not accept our requests to connect|timed out|host not reachable|connection refused|not delivered within \d+ days|host is not responding/i;

/**
 * Whether a permanent failure that is not about the address is a relay giving up after retries
 * (SPEC §9: the message is bounced, the address kept; what failed was the route, not the
 * recipient). Meaningful only for a failure `classify` read as `soft`.
 */
export function gaveUp(failure: Failure): boolean {
  const klass = parseStatus(failure.status)?.klass ?? failureStatusIn(failure.diagnostic)?.klass;
  return klass === 4 || replyClassOf(failure.diagnostic) === 4 || GAVE_UP_AFTER_RETRIES.test(failure.diagnostic);
}

/** X.1.1 bad mailbox, X.1.2 bad domain, X.1.3 bad address syntax, X.1.6 moved, X.1.10 null MX (RFC 3463, RFC 7505). */
const isAddressStatus = (code: StatusCode): boolean => code.subject === 1 && [1, 2, 3, 6, 10].includes(code.detail);
/**
 * Codes about the address that name no particular cause, so the diagnostic's words decide: X.1.0
 * "other address status", a detail under X.1 that RFC 3463 and its updates do not register
 * (Office 365's 5.1.351), and X.4.4 "unable to route", which Postfix writes for a domain name
 * that does not exist ("Host or domain name not found"). Other subjects say the cause lies
 * elsewhere (X.2 "the mailbox exists, but…", X.7 policy…).
 */
const isVagueStatus = (code: StatusCode): boolean =>
  (code.subject === 1 && (code.detail === 0 || code.detail > 10)) || (code.subject === 4 && code.detail === 4);
/** X.0.0 "other undefined status": the reporting server could not tell; a more specific code beside it settles the matter. */
const isUndefinedStatus = (code: StatusCode): boolean => code.subject === 0;
/**
 * The catch-all "other" codes of the undefined, mail system and protocol subjects (X.0.0, X.3.0,
 * X.5.0) that servers write when they map no cause (qmail's "#5.5.0" for any remote 5xx, a
 * gateway's "553 5.3.0 … No such user here"): they point nowhere, so words given at RCPT decide.
 */
const isCatchAllStatus = (code: StatusCode): boolean => [0, 3, 5].includes(code.subject) && code.detail === 0;
/**
 * X.2.1 "mailbox disabled" is what some servers write beside a plain "User unknown" (Sendmail-
 * style "550 5.2.1 <a@b>... User Unknown" from Japanese ISPs, a Postfix "Recipient address
 * rejected: User unknown"): words given at RCPT that say the user does not exist settle it, and
 * words saying the mailbox is disabled or full were ruled out before.
 */
const isDisabledMailboxStatus = (code: StatusCode): boolean => code.subject === 2 && code.detail === 1;

const said = (phrases: RegExp[], text: string): boolean => phrases.some((phrase) => phrase.test(text));

/**
 * Suppression needs an RFC 3463 code about the address: a specific one (X.1.1…), or a vague one
 * (X.1.0, X.4.4) whose words say the address does not exist. Every other code given must agree,
 * and no words may point elsewhere: when the signs disagree, the address is kept. Without a code
 * (or with only a catch-all one, the reporting server's "I cannot tell"), words suppress only
 * when the report shows they answered RCPT TO: servers that filter mail say "user unknown" at
 * DATA too, and a report that does not say when the words came cannot tell the two apart; or
 * when a server identified by its report says so in its own words (servers/).
 */
function isAboutTheAddress(codes: StatusCode[], failure: Failure): boolean {
  const { diagnostic } = failure;
  const context = failure.context ?? '';
  if (said(NOT_ABOUT_THE_ADDRESS, diagnostic) || said(NOT_ABOUT_THE_ADDRESS_IN_TEXT, context)) return false;
  const defined = codes.filter((code) => !isUndefinedStatus(code));
  const pointsNowhereElse = (allowed: (code: StatusCode) => boolean) =>
    defined.every((code) => isAddressStatus(code) || isVagueStatus(code) || allowed(code));
  const serverSays = (failure.servers ?? []).some(
    (server) => server.addressFailure.test(diagnostic) || server.addressFailure.test(context),
  );
  if (serverSays && pointsNowhereElse(isCatchAllStatus)) return true;
  if (said(REFUSED_AFTER_DATA, `${diagnostic}\n${context}`)) return false;
  const wordsSay = said(ADDRESS_DOES_NOT_EXIST, diagnostic);
  if (said(REFUSED_AT_RCPT, `${diagnostic}\n${context}`) && wordsSay)
    return pointsNowhereElse((code) => isCatchAllStatus(code) || isDisabledMailboxStatus(code));
  if (defined.length === 0 || !pointsNowhereElse(() => false)) return false;
  return defined.some(isAddressStatus) || wordsSay;
}

/** A retried address code (X.1.1…), every code given about the address and words that agree. */
function isStillUnknownAfterRetries(codes: StatusCode[], failure: Failure): boolean {
  const { diagnostic } = failure;
  if (said(NOT_ABOUT_THE_ADDRESS, diagnostic) || said(NOT_ABOUT_THE_ADDRESS_IN_TEXT, failure.context ?? ''))
    return false;
  return codes.length > 0 && codes.every(isAddressStatus) && said(ADDRESS_DOES_NOT_EXIST, diagnostic);
}
