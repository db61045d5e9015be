/** How much of a reply is read for a hint: a reply line is at most 512 octets (RFC 5321 §4.5.3.1.5), a multi-line one a few. */
export const RETRY_HINT_READ_CHARS = 2_000;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600 };

// "try again in 5 minutes", "retry in 300 seconds", "come back in 1 hour", "try again after 10 mins".
const HINT =
  /\b(?:try(?:\s+again)?|retry|come\s+back)(?:\s+later)?\s+(?:in|after)\s+(\d{1,6})\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b/i;

/**
 * The delay a temporary-failure reply names for coming back ("try again in 5 minutes"), in
 * seconds; undefined when it names none. docs/delivery-and-deliverability.md#direct-delivery:
 * retries honour it when it falls within DELIVERY_RETRY_DELAYS. Free text, not an RFC format:
 * there is no grammar to hand to a parser, only the wordings servers use.
 */
export function retryHintSeconds(reply: string): number | undefined {
  const match = HINT.exec(reply.slice(0, RETRY_HINT_READ_CHARS));
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2][0].toLowerCase()];
}
