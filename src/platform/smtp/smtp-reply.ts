/** An error smtp-server answers with its code and text (it adds the enhanced status code). */
export type SmtpReply = Error & { responseCode: number };

/**
 * Every reply text of ours passes here, so that each is one line of printable ASCII (RFC 5321
 * §4.2: a reply is US-ASCII), whatever it quotes: a validation message, a header name, a client's
 * input. Accents are dropped (é: e), dashes become hyphens, line breaks and other controls spaces
 * (no client can split a reply in two), and anything else left is a question mark.
 */
export function asciiReplyText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/\p{Pd}/gu, '-')
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
      .replace(/[\x00-\x1f\x7f\s]/g, ' ')
      .replace(/[^\x20-\x7e]/gu, '?')
  );
}

export const smtpReply = (code: number, text: string): SmtpReply =>
  Object.assign(new Error(asciiReplyText(text)), { responseCode: code });
