/**
 * RFC 3463 enhanced status codes (`class.subject.detail`) and RFC 5321 reply codes, as servers
 * write them inside free-text diagnostics (`550 5.1.1 <a@b>: User unknown`, qmail's `(#5.1.1)`).
 */

// class 2, 4 or 5; subject and detail of one to three digits (RFC 3463 §2), not inside a longer number.
const ENHANCED_STATUS = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
const FAILURE_STATUS = /(?<![\d.])([45])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
// A reply code (RFC 5321 §4.2) opening a line or following a colon, as `said: 550 …`, `smtp; 550-…`.
const REPLY_CODE = /(?:^[ \t]*|[:;]\s*|\bsaid\s*:?\s*)([45][0-5]\d)(?=[\s-]|$)/im;

export interface StatusCode {
  klass: 2 | 4 | 5;
  subject: number;
  detail: number;
  text: string;
}

/** The first enhanced status code in a field or a text. */
export function parseStatus(value: string | undefined): StatusCode | undefined {
  return statusMatching(ENHANCED_STATUS, value);
}

/** The first failure code (4.x.x or 5.x.x) in a text, where a transcript also quotes the 2.x.x of the steps that went well. */
export function failureStatusIn(text: string): StatusCode | undefined {
  return statusMatching(FAILURE_STATUS, text);
}

function statusMatching(pattern: RegExp, value: string | undefined): StatusCode | undefined {
  const match = value === undefined ? null : pattern.exec(value);
  if (!match) return undefined;
  const [klass, subject, detail] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return { klass: klass as 2 | 4 | 5, subject, detail, text: `${klass}.${subject}.${detail}` };
}

/** The class (4 or 5) of the first SMTP reply code in a diagnostic, when there is one. */
export function replyClassOf(text: string): 4 | 5 | undefined {
  const match = REPLY_CODE.exec(text);
  return match ? (Number(match[1][0]) as 4 | 5) : undefined;
}
