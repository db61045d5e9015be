import { isFQDN, ValidateBy, ValidationOptions } from 'class-validator';
import { asciiDomain, domainOf } from '../../platform/mail/addresses';

/** RFC 1035 §2.3.4: 255 octets on the wire, so 253 characters written out without the final dot. */
export const MAX_DOMAIN_NAME_LENGTH = 253;
// Room for a name in Unicode whose A-label form is at the limit; anything longer is refused unread.
const MAX_INPUT_LENGTH = 4 * MAX_DOMAIN_NAME_LENGTH;
// Host names only: no underscore, wildcard, trailing dot or all-digit top-level label (an IP address).
const HOST_NAME = {
  require_tld: true,
  allow_underscores: false,
  allow_trailing_dot: false,
  allow_numeric_tld: false,
  allow_wildcard: false,
};

/**
 * A sending domain as DNS knows it: lower-cased, internationalized names in their A-label
 * (`xn--`) form, as UTS #46 maps them (WHATWG's domainToASCII, what browsers use). Undefined for
 * anything else: an address, an IP, a name with an empty or over-long label, or one that would be
 * more than 253 characters on the wire.
 */
export function toDomainName(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_INPUT_LENGTH || !isFQDN(value, HOST_NAME)) return undefined;
  // asciiDomain also decodes %xx and maps other dots (。) to dots: a name written so is refused.
  if (value.includes('%')) return undefined;
  const ascii = asciiDomain(value);
  if (!ascii || ascii.length > MAX_DOMAIN_NAME_LENGTH || !isFQDN(ascii, HOST_NAME)) return undefined;
  return ascii.split('.').length === value.split('.').length ? ascii : undefined;
}

export const IsDomainName = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isDomainName', validator: { validate: (value) => toDomainName(value) !== undefined } },
    {
      message: `must be a domain name like example.com: labels of letters, digits and hyphens, at most ${MAX_DOMAIN_NAME_LENGTH} characters`,
      ...options,
    },
  );

/**
 * The domain of a sender address and each domain above it, most specific first
 * (`mail.example.com`, `example.com`, `com`), in the form names are stored in.
 */
export function domainsAbove(address: string): string[] {
  const domain = asciiDomain(domainOf(address));
  if (!domain) return [];
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}
