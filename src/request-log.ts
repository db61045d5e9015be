import type { IncomingMessage } from 'node:http';
import type { AuthUser } from './auth';
import { clientAddressOfRequest, ProxyTrust } from './platform/http/client-address';

/**
 * What a request's log line keeps of it: its id, method and path, no headers (about 750 bytes
 * each, credentials among them). An unsubscribe path's token is a credential too (it unsubscribes
 * its recipient), so the line names the route instead.
 */
export function loggedRequest(request: { id: string; method: string; url: string }) {
  return {
    id: request.id,
    method: request.method,
    url: request.url.replace(/^\/unsubscribe\/[^/?#]*/i, '/unsubscribe/{token}'),
  };
}

/**
 * What a request's log line adds once its answer is sent: the caller the guard named, and the
 * client's address (TRUST_PROXY: the client behind our proxies, not the proxy).
 */
export function requestLogProps(request: IncomingMessage & { user?: Pick<AuthUser, 'id'> }, proxies: ProxyTrust) {
  return { userId: request.user?.id, clientAddress: clientAddressOfRequest(request, proxies) };
}
