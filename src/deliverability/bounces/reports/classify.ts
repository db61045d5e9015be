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
  /**
   * The report's words about this recipient alone, read beside the diagnostic for the words of an
   * address failure and for the SMTP command that was refused: what is said of another recipient
   * of the same report must not suppress this one. `context` when not given (a report about one
   * recipient, a live refusal); '' for a report naming others, whose text is shared.
   */
  ownText?: string;
  /**
   * The report's structure places the refusal at RCPT TO, beside what its words say (a DSN whose
   * Diagnostic-Code quotes its Final-Recipient right after the reply code: repliesNaming).
   */
  atRcpt?: true;
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
  // The server could not tell for now (Postfix "Host not found, try again", "directory lookup
  // temporarily failed"): a bare "try again" stays out, Hotmail ends a real hard bounce with it.
  /temporar|host not found, try again/i,
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
 * The families of wording by which servers say the address itself does not exist, or its domain
 * does not or takes no mail: the RFC 3463 X.1.x subjects in words. Each family is written by
 * many servers (the bench names the corpus families each one reads), none by one server alone.
 * A few words may stand between a family's subject and its verb ("the account you addressed does
 * not exist", "Domain example.org does not exist"): `(?:[^.;:]|\.(?=\S)){0,60}?`, up to 40 or 60
 * characters within one clause (no ';', ':' or sentence-ending '.'), bounded to stay linear.
 */
export const ADDRESS_WORDINGS: { family: string; words: RegExp; lookup?: true }[] = [
  {
    // X.1.1 in words: Postfix "User unknown in local recipient table", Sendmail "User unknown",
    // Exim "unknown user", cPanel "No Such User Here", Courier "No such user", Dovecot "user
    // doesn't exist", qmail "no mailbox here by that name", Exchange "RecipNotFound", IMail
    // "Unknown user:", Exchange 5.5 "Unknown Recipient".
    family: 'no such user',
    words:
      /user unknown|unknown (?:user|recipient|mailbox|address)|recipient unknown|no such (?:user|mailbox|recipient|address|account)|(?:user|account|mailbox|address|recipient)\b(?:[^.;:]|\.(?=\S)){0,40}?\b(?:does not|doesn'?t) exist|no mailbox here|recipnotfound|doesn'?t have an? [\w.-]+ account/i,
  },
  {
    // A lookup that found nothing: "User not found", "Recipient not found by SMTP address lookup",
    // "mailbox not found", "the address couldn't be found".
    family: 'not found',
    lookup: true,
    words:
      /(?:user|recipient|mailbox|address|account)\b(?:[^.;:]|\.(?=\S)){0,60}?\b(?:was |is )?not found|(?:user|recipient|mailbox|address|account) (?:couldn'?t|could not|cannot|can'?t) be found/i,
  },
  {
    // "Invalid recipient", "invalid mailbox", "No valid recipients", "not a valid mailbox".
    family: 'invalid recipient',
    words: /(?:invalid|no valid|not a valid) (?:recipient|mailbox|user|final delivery userid)/i,
  },
  {
    // The organisation's directory lacks the name: "not listed in Domino Directory" (and "…in public
    // Name & Address Book"), "The recipient name is not recognized"; in Spanish and French "no se
    // encuentra en el directorio", "non répertorié dans l'annuaire".
    family: 'not in the directory',
    lookup: true,
    words:
      /not listed in (?:the )?[\w &]{0,40}(?:directory|address book)|(?:recipient|user|address|name) (?:is )?not recognized|no se encuentra en el directorio|non r\u00e9pertori\u00e9 dans l'annuaire/i,
  },
  {
    // X.1.2 in words: Postfix "Host or domain name not found", "Domain not found", "no such domain",
    // "Domain does not exist", "unknown host", Exim "Unrouteable address", "Illegal host/domain name".
    family: 'no such domain',
    lookup: true,
    words:
      /host or domain name not found|domain (?:name )?not found|no such domain|domain\b(?:[^.;:]|\.(?=\S)){0,60}?\b(?:does not|doesn'?t) exist|invalid domain name|unknown host|host unknown|illegal host\/domain|couldn'?t find any host/i,
  },
  {
    // X.1.10 in words: a domain that publishes no mail host or a null MX (RFC 7505): "No MX found",
    // "does not accept mail", "no SMTP service", "MX records point to non-existent hosts",
    // "host address lookups failed permanently", "couldn't find a mail exchanger".
    family: 'no mail host',
    lookup: true,
    words:
      /no mx (?:record )?found|null mx|does not accept mail|no smtp service|non-existent hosts?|lookups? failed permanently|couldn'?t find a mail exchanger/i,
  },
  // Exim "Unrouteable address": no route to the domain, which a router's configuration can say of a
  // real domain too, so only with a code or at RCPT TO.
  { family: 'unrouteable', words: /unrouteable address/i },
  // X.1.6 in words: Sendmail "User has moved; please try <new address>".
  { family: 'moved', words: /has moved|no longer (?:at|with|valid)/i },
];

const ADDRESS_DOES_NOT_EXIST: RegExp[] = ADDRESS_WORDINGS.map(({ words }) => words);
/*
 * The families that report a lookup (the organisation's directory, DNS) rather than a refusal: a
 * filter that refuses mail may pretend "user unknown", never that a directory or DNS lacks a name,
 * so these words count without a remote reply to place them (isAboutTheAddress).
 */
const LOOKUP_FAILED: RegExp[] = ADDRESS_WORDINGS.filter(({ lookup }) => lookup).map(({ words }) => words);
// Words that hedge: "The account or domain may not exist", "the address couldn't be found, or is
// unable to receive mail", "it might not exist". A text that hedges decides nothing by its words
// (a code, or a remote server's own words, still may).
const UNSURE = /\b(?:may|might) not exist|or is unable to receive/i;
/** Whether a text says, without hedging, that the address fails: by any family, or by a lookup's only. */
const wordsIn = (text: string, families: RegExp[] = ADDRESS_DOES_NOT_EXIST): boolean =>
  !UNSURE.test(text) && said(families, text);

/** The families of address wording a text holds (the bench uses them to show each family is read across servers). */
export const addressWordingsIn = (text: string): string[] =>
  ADDRESS_WORDINGS.filter(({ words }) => words.test(text)).map(({ family }) => family);

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
  // so, with a 4.x.x): bounced, address kept (docs/delivery-and-deliverability.md), even for a retried "450 4.1.1 User
  // unknown": a server answers so when it is configured to be unsure (Postfix's
  // unknown_local_recipient_reject_code, a directory it cannot reach).
  if (klass === 4) return 'soft';
  // A 4xx reply around an address code ("450 5.1.1 User unknown"): the server itself says it may
  // take the mail later, so the address is not known to be bad.
  if (replyClassOf(failure.diagnostic) === 4) return 'soft';
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
// Only what expires in a queue: not a certificate or a password that expired (a refusal).
const GAVE_UP_AFTER_RETRIES =
  /\b(?:message|envelope|queue)[ .]expired\b|queue too long|could not deliver for the last|giving up|did not accept our requests to connect|timed out|host not reachable|connection refused|not delivered within \d+ days|host is not responding/i;

/**
 * Whether a permanent failure that is not about the address is a relay giving up after retries
 * (docs/delivery-and-deliverability.md: the message is bounced, the address kept; what failed was the route, not the
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
 * (X.1.0, X.4.4) beside words of an address failure (the diagnostic's or the report's own words
 * about this recipient). Every other code given must agree, and no words may point elsewhere:
 * when the signs disagree, the address is kept. Without a code (or with only a catch-all one, the
 * reporting server's "I cannot tell"), words suppress only when it is known what they answer:
 * - a remote server's reply to RCPT TO, where a server says whether it takes mail for the
 *   recipient (servers that filter mail say "user unknown" at DATA too, so words after DATA, or
 *   with no word of when, never suppress);
 * - or the reporting server's own directory or DNS lookup (LOOKUP_FAILED), when the report quotes
 *   no remote server's reply (no SMTP reply code in the diagnostic or this recipient's words).
 * A text that hedges (UNSURE) decides nothing by its words.
 */
function isAboutTheAddress(codes: StatusCode[], failure: Failure): boolean {
  const { diagnostic, context } = failure;
  if (said(NOT_ABOUT_THE_ADDRESS, diagnostic) || said(NOT_ABOUT_THE_ADDRESS_IN_TEXT, context ?? '')) return false;
  if (said(REFUSED_AFTER_DATA, `${diagnostic}\n${context ?? ''}`)) return false;
  const defined = codes.filter((code) => !isUndefinedStatus(code));
  const pointsNowhereElse = (allowed: (code: StatusCode) => boolean) =>
    defined.every((code) => isAddressStatus(code) || isVagueStatus(code) || allowed(code));
  const ownText = failure.ownText ?? context ?? '';
  const wordsSay = wordsIn(diagnostic);
  if ((failure.atRcpt || said(REFUSED_AT_RCPT, `${diagnostic}\n${ownText}`)) && wordsSay)
    return pointsNowhereElse((code) => isCatchAllStatus(code) || isDisabledMailboxStatus(code));
  const noRemoteReply = replyClassOf(diagnostic) === undefined && replyClassOf(ownText) === undefined;
  const lookupSays = wordsIn(diagnostic, LOOKUP_FAILED) || wordsIn(ownText, LOOKUP_FAILED);
  if (context !== undefined && noRemoteReply && lookupSays) return pointsNowhereElse(isCatchAllStatus);
  if (defined.length === 0 || !pointsNowhereElse(() => false)) return false;
  return defined.some(isAddressStatus) || wordsSay || wordsIn(ownText);
}
