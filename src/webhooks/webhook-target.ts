import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, literalAddress } from './public-address';

/**
 * What a refused target is told, naming the setting that lifts the guard: a receiver on the
 * operator's own network (a test server, an internal service) is a common, legitimate wish.
 */
export const PRIVATE_NETWORKS_HINT = 'an operator can allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true';

/**
 * The SSRF guard (docs/delivery-and-deliverability.md#webhooks) at connection time: a DNS lookup for the HTTP client that refuses a host when any of its addresses is not public,
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

/**
 * Why a webhook URL (a send's, an endpoint's) can never be delivered, said when it is given (
 * docs/delivery-and-deliverability.md#webhooks): credentials, which would be sent as Basic auth and shown in the delivery log, or a private
 * address named outright. Undefined when it may be; a host name is judged at each attempt.
 */
export function unreachableWebhookUrl(url: string, allowPrivateNetworks: boolean): string | undefined {
  const target = new URL(url);
  if (target.username || target.password) return 'must not contain a user name or password';
  if (allowPrivateNetworks) return undefined;
  const address = literalAddress(target);
  if (address && !isPublicAddress(address))
    return `must not name a private, loopback or link-local address (${address}); ${PRIVATE_NETWORKS_HINT}`;
  return undefined;
}
