import { domainToASCII } from 'node:url';

/**
 * How addresses are normalised, here and only here: compared case-insensitively, as address keys
 * (lower-cased in JavaScript: PostgreSQL's lower() disagrees with it on letters such as İ, so SQL
 * never lower-cases), and their domains, where DNS or SMTP meets them, in A-labels.
 */
export function addressKey(email: string): string {
  return email.toLowerCase();
}

/** An address's domain: whatever follows its last @ (a quoted local part may hold one). */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/**
 * A domain name in lower-case A-labels (`xn--`), as UTS #46 maps it (WHATWG's domainToASCII,
 * what browsers use); '' for a name it refuses.
 */
export function asciiDomain(domain: string): string {
  return domainToASCII(domain);
}

/**
 * An address key with its domain in A-labels: SMTP carries an internationalized domain that way
 * (nodemailer converts it), so a relay's report names `ada@xn--bcher-kva.example` for the stored
 * `ada@bücher.example`. A domain asciiDomain refuses is kept as written.
 */
export function asciiAddressKey(key: string): string {
  const domain = domainOf(key);
  return `${key.slice(0, key.length - domain.length)}${asciiDomain(domain) || domain}`;
}
