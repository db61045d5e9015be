import { asciiDomain, domainOf } from '../../platform/mail/addresses';

/**
 * Envelope recipients grouped by domain, in A-label form (`bücher.example` → `xn--bcher-kva.example`),
 * lower-cased: each group is one transaction with the domain's MX hosts
 * (docs/delivery-and-deliverability.md#direct-delivery). Groups and their recipients keep the
 * envelope's order; each address stays as the envelope gave it.
 */
export function byRecipientDomain(recipients: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const recipient of recipients) {
    const domain = asciiDomainOf(recipient);
    const group = groups.get(domain);
    if (group) group.push(recipient);
    else groups.set(domain, [recipient]);
  }
  return groups;
}

/** The domain of an address (after its last `@`) in A-label form; as given, lower-cased, when it is no valid IDN. */
export function asciiDomainOf(address: string): string {
  const domain = domainOf(address).toLowerCase();
  return asciiDomain(domain) || domain;
}

/**
 * The address as the envelope says it to an MX host: its domain in A-label form when it is an IDN
 * (`user@bücher.example` → `user@xn--bcher-kva.example`), for a server that offers no SMTPUTF8
 * must not be sent non-ASCII (RFC 6531 §3.4); any other address as given.
 */
export function envelopeAddressOf(address: string): string {
  const at = address.lastIndexOf('@');
  // eslint-disable-next-line no-control-regex
  if (at < 0 || /^[\x00-\x7f]*$/.test(address.slice(at + 1))) return address;
  return `${address.slice(0, at + 1)}${asciiDomainOf(address)}`;
}
