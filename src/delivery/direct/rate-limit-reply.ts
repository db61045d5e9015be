/**
 * How much of a reply is read: a reply line is at most 512 octets (RFC 5321 §4.5.3.1.5), a
 * multi-line one a few; the wordings below stand in its first lines.
 */
export const RATE_LIMIT_REPLY_READ_CHARS = 2_000;

// A continuation line's prefix ("450-4.2.1 "), so that a wording split over two lines still reads as one.
const LINE_PREFIX = /\r?\n\s*\d{3}[- ]?(?:[245]\.\d{1,3}\.\d{1,3}\s+)?/g;

/**
 * The wordings of "you are sending too fast" (docs/delivery-and-deliverability.md#direct-delivery).
 * Free text, not an RFC format: no grammar to hand a parser, only what the big receivers write.
 * Kept narrow on purpose: "try again later" alone is also greylisting's wording, and a greylisted
 * or full mailbox must not slow a whole site down.
 */
const TOO_FAST = new RegExp(
  [
    // Gmail 450-4.2.1 "… is receiving mail at a rate that prevents additional messages from being delivered".
    String.raw`receiving mail (?:at a rate|too quickly)`,
    // Gmail 421-4.7.28 "… detected an unusual rate of unsolicited mail originating from your IP address".
    String.raw`unusual rate of`,
    // Microsoft 451 4.7.650 "… has been temporarily rate limited"; generic "rate limit(ed|ing)", "rate exceeded".
    String.raw`rate[- ]?limit`,
    String.raw`rate (?:was |has been )?exceeded`,
    // Microsoft 4.7.500 "Server busy. Please try again later from [1.2.3.4]".
    String.raw`server busy`,
    // Yahoo 421 4.7.0 [TSS04] "Messages from … temporarily deferred due to unexpected volume or user complaints"; [TS01]–[TS03].
    String.raw`\[TSS?0\d\]`,
    String.raw`unexpected volume`,
    // Postfix smtpd_client_*_rate_limit and anvil: "too much mail from", "too many connections from", "too many messages".
    String.raw`too much mail`,
    String.raw`too many (?:connections|concurrent (?:connections|sessions)|messages|mails?)\b`,
    String.raw`(?:sending|sent) (?:mail )?too (?:fast|quickly)`,
  ].join('|'),
  'i',
);

/**
 * Whether a 4xx reply says the sender is too fast: a 421 always (the server is closing the
 * channel, RFC 5321 §3.8: coming back at once would only be shut again), another 4xx when its
 * text is one of the rate-limit wordings. Greylisting, a full mailbox and other 4xx are not.
 */
export function isRateLimitReply(reply: string): boolean {
  const read = reply.slice(0, RATE_LIMIT_REPLY_READ_CHARS);
  const code = /^\s*(\d{3})/.exec(read)?.[1];
  if (code === undefined || code[0] !== '4') return false;
  if (code === '421') return true;
  return TOO_FAST.test(read.replace(LINE_PREFIX, ' ').replace(/\s+/g, ' '));
}
