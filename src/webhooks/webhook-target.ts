import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard (SPEC §7): a webhook may only reach public unicast addresses. Loopback, private,
 * link-local (cloud metadata among them), CGNAT, multicast, unique-local, NAT64 and the other
 * special ranges are refused, IPv4-mapped IPv6 judged as the IPv4 it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // ipaddr.js calls the deprecated IPv4-compatible form (::a.b.c.d) unicast: it is not public.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === 'unicast';
}

/**
 * What a refused target is told, naming the setting that lifts the guard: a receiver on the
 * operator's own network (a test server, an internal service) is a common, legitimate wish.
 */
export const PRIVATE_NETWORKS_HINT = 'an operator can allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true';

/** The host of a URL if it is an IP literal ([::1] without its brackets), else undefined. */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : undefined;
}

/**
 * A DNS lookup for the HTTP client that refuses a host when any of its addresses is not public,
 * and connects to the address it checked, so that a second resolution cannot swap it (DNS
 * rebinding). It runs for every new connection; a kept-alive one was checked when it opened.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      const reason = Object.assign(
        new Error(
          `${hostname} resolves to ${refused?.address ?? 'nothing'}, which webhooks may not reach (${PRIVATE_NETWORKS_HINT})`,
        ),
        { code: 'EWEBHOOKTARGET' },
      );
      return callback(reason, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
