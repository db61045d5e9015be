import { isEmailAddress } from './email-address';
import { remembered } from './remembered';

// nodemailer's RFC 5322 address parser (the one it uses for its own headers); no typings ship with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- nodemailer 10's own typings of this internal path declare no call signature; the cast below gives it one
const addressparser = require('nodemailer/lib/addressparser') as (
  value: string,
) => { name: string; address?: string; group?: unknown[] }[];

/**
 * Room for a display name beside the longest address (254), well inside a header line's 998
 * characters (RFC 5322 §2.1.1) even when a name without spaces cannot be folded.
 */
export const MAX_MAILBOX_LENGTH = 512;
// Control and format characters (CR, LF, NUL, bidi overrides…) and line or paragraph separators
// could write a header of their own or hide part of a name.
const CONTROL_OR_BREAK = /[\p{C}\u2028\u2029]/u;
// `name-addr` (RFC 5322 §3.4): the address in angle brackets, last in the value.
const ANGLE_ADDRESS = /<([^<>]*)>\s*$/;
// A display name is one quoted string, or words without RFC 5322's specials (dots allowed, as
// obs-phrase does): an unquoted comma would make a list, an unclosed quote swallow the address.
const DISPLAY_NAME = /^(?:"(?:[^"\\]|\\.)*"|[^()<>[\]:;@\\,"]*)$/;

export interface Mailbox {
  /** The display name, unquoted and undecoded; empty when none was given. */
  name: string;
  /** The address part, exactly as written between the angle brackets (or the whole value). */
  address: string;
}

/**
 * A bare address (isEmailAddress, unchanged) or one mailbox with a display name, parsed by
 * nodemailer's addressparser: `Ada <ada@example.com>`, `"Lovelace, Ada" <ada@example.com>`.
 * Groups, lists and anything the parser had to guess at are refused (undefined). The address
 * part is taken as written, since the parser strips the quotes of a quoted local part.
 */
export function parseMailbox(value: unknown): Readonly<Mailbox> | undefined {
  return typeof value === 'string' && value.length <= MAX_MAILBOX_LENGTH ? parseString(value) : undefined;
}

// isEmailAddress as a plain test: a string that is not a bare address is still a string to read on.
const isBareAddress: (value: string) => boolean = isEmailAddress;

const parseString = remembered(
  (value: string): Readonly<Mailbox> | undefined => {
    if (isBareAddress(value)) return Object.freeze({ name: '', address: value });
    if (CONTROL_OR_BREAK.test(value)) return undefined;
    const angle = ANGLE_ADDRESS.exec(value);
    if (!angle || !isEmailAddress(angle[1])) return undefined;
    const parsed = addressparser(value);
    if (parsed.length !== 1 || parsed[0].group || !parsed[0].address) return undefined;
    if (!DISPLAY_NAME.test(value.slice(0, angle.index).trim())) return undefined;
    return Object.freeze({ name: parsed[0].name, address: angle[1] });
  },
  4096,
  MAX_MAILBOX_LENGTH,
);

export const isMailbox = (value: unknown): value is string => parseMailbox(value) !== undefined;

/** The address part of a mailbox that was accepted; the value itself otherwise. */
export function addressOf(value: string): string {
  return parseMailbox(value)?.address ?? value;
}
