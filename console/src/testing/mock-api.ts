/**
 * The API at the HTTP boundary for component tests: `fetch` answers from the routes a test
 * declares, so the typed client, its middleware and TanStack Query all run as in the browser.
 * A request no route answers fails the test (see setup.ts) rather than passing unseen.
 */
type Answer = { status: number; body: unknown } | 'pending';

interface Route {
  method: string;
  path: string;
  answer: (request: Request) => Answer;
}

let routes: Route[] = [];
const requests: Request[] = [];
const unexpected: string[] = [];

const json = (status: number, body: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

/** The stub installed as the global fetch before the client is created (setup.ts). */
export async function fetchStub(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const { pathname } = new URL(request.url);
  requests.push(request.clone());
  // The newest route first: a test overrides a default (the signed-in caller) by declaring another.
  const route = routes.findLast((candidate) => candidate.method === request.method && candidate.path === pathname);
  if (!route) {
    unexpected.push(`${request.method} ${pathname}`);
    return json(501, { status: 501, detail: `No answer declared for ${request.method} ${pathname}.` });
  }
  const answer = route.answer(request);
  // Never settles: the page stays in its loading state for as long as the test looks.
  if (answer === 'pending') return new Promise<Response>(() => {});
  return json(answer.status, answer.body);
}

/** `GET /user/messages` answers `body` (200 unless told) from now on. */
export function answer(route: string, body: unknown, status = 200): void {
  on(route, () => ({ status, body }));
}

/** `route` answers as `respond` says, given the request (its query, its body). */
export function on(route: string, respond: (request: Request) => Answer): void {
  const [method = '', path = ''] = route.split(' ');
  routes.push({ method, path, answer: respond });
}

/** An RFC 9457 problem answer, as the API sends its 4xx and 5xx. */
export function problem(route: string, status: number, detail: string): void {
  answer(route, { type: 'about:blank', title: 'Problem', status, detail, requestId: 'req-1' }, status);
}

/** The requests sent so far to `path`, oldest first. */
export function requestsTo(path: string): Request[] {
  return requests.filter((request) => new URL(request.url).pathname === path);
}

/** Forgets every route and request; returns the requests nothing answered since the last reset. */
export function resetApi(): string[] {
  routes = [];
  requests.length = 0;
  return unexpected.splice(0);
}
