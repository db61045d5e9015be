import { addressKey } from '../../../platform/mail/addresses';
import { parseMailbox } from '../../../platform/validation/mailbox';

// nodemailer's RFC 5322 address list parser (no typings ship with it).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- nodemailer 10's own typings of this internal path declare no call signature; the cast below gives it one
const addressparser = require('nodemailer/lib/addressparser') as (
  value: string,
  options?: { flatten: boolean },
) => { address?: string }[];

// An address as written in a report: `<a@b>` or `a@b`; anything longer is not one address.
const MAX_ADDRESS_LENGTH = 320;

/**
 * The address in a DSN recipient field (`rfc822; ada@example.com`, RFC 3464 §2.3.2: address
 * type, semicolon, address) or in a header, lower-cased; undefined when it holds none.
 */
export function recipientOf(field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const separator = field.indexOf(';');
  const value = (separator >= 0 ? field.slice(separator + 1) : field).trim();
  return addressIn(value);
}

/** The address of a mailbox or bare address (`<a@b>`, `Ada <a@b>`, `a@b`), lower-cased. */
export function addressIn(value: string): string | undefined {
  if (value.length > MAX_ADDRESS_LENGTH || !value.includes('@')) return undefined;
  const bare = value.replace(/^<(.*)>$/, '$1');
  const mailbox = parseMailbox(value) ?? parseMailbox(bare);
  if (mailbox) return addressKey(mailbox.address);
  // An address our validator refuses (a domain without a dot, say) is still the one named.
  return /^[^\s<>@]+@[^\s<>@]+$/.test(bare) ? addressKey(bare) : undefined;
}

/** The addresses of an address list header (To, Cc), lower-cased, groups flattened. */
export function addressesIn(list: string): string[] {
  return addressparser(list, { flatten: true })
    .map((mailbox) => (mailbox.address ? addressIn(mailbox.address) : undefined))
    .filter((address) => address !== undefined);
}
