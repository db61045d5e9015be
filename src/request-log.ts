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
