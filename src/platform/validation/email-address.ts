import { isEmail } from 'class-validator';
import { remembered } from './remembered';

// RFC 5321 caps a forward path at 256 octets, so an address at 254 characters.
const MAX_ADDRESS_LENGTH = 254;
// Unicode's control, format (bidi overrides, zero-width), surrogate, private-use and unassigned
// characters, and white space: none belongs in an address, and each can write a header of its
// own or make one address look like another.
const INVISIBLE_OR_CONTROL = /[\p{C}\p{Z}]/u;
// A quoted local part (RFC 5321 §4.1.2) narrowed to what servers take: printable ASCII without
// space, " \ @ < or > (smtp-server refuses a quoted space, @ or <; Amazon SES any white space).
const QUOTED_LOCAL_PART = /^"[\x21\x23-\x3b\x3d\x3f\x41-\x5b\x5d-\x7e]+"$/;

/**
 * Whether `value` is an address we accept and can deliver: validator.js's RFC 5322 parse of a
 * bare address with a domain name, narrowed to what SMTP servers accept. The one place this
 * rule lives: every address field (sender, to, and the list filters) goes through it.
 */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ADDRESS_LENGTH && isAcceptedAddress(value);
}

const isAcceptedAddress = remembered(
  (value: string) => {
    if (INVISIBLE_OR_CONTROL.test(value)) return false;
    const localPart = value.slice(0, value.lastIndexOf('@'));
    if (localPart.startsWith('"') && !QUOTED_LOCAL_PART.test(localPart)) return false;
    return isEmail(value, { allow_display_name: false, require_tld: true, allow_ip_domain: false });
  },
  4096,
  MAX_ADDRESS_LENGTH,
);
