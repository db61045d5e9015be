// What the client repeats and what it hands back, against a real HTTP server on loopback that
// answers as each test scripts it: the answers Mailroom gives only under load or in a failure
// (a 429 past a minute's budget, a 503 while draining, a dropped connection) on demand. The
// same paths against the real app: test/medium/sdk.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Mailroom, MailroomError } from '../src';

type Reply = (request: IncomingMessage, response: ServerResponse) => void;

const problem = (status: number, title: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'about:blank', title, status, detail: `${title}.`, requestId: 'from-the-body', ...extra });

function answer(status: number, headers: Record<string, string> = {}, body = problem(status, 'Refused')): Reply {
  return (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'rid-1', ...headers });
    response.end(body);
  };
}

const ok: Reply = (_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ id: 'm1', status: 'queued' }));
};

const drop: Reply = (request) => request.socket.destroy();

describe('the client against a scripted server', () => {
  let server: Server;
  let baseUrl: string;
  /** Each request the server got, in order: method, URL and headers. */
  let seen: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  /** The replies to the next requests, in order; `ok` after them. */
  let script: Reply[];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      request.resume();
      request.on('end', () => (script.shift() ?? ok)(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen = [];
    script = [];
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const client = (options: Partial<ConstructorParameters<typeof Mailroom>[0]> = {}) =>
    new Mailroom({ baseUrl, apiKey: 'mr_test', ...options });
  const send = (mailroom: Mailroom) =>
    mailroom.emails.send({ sender: 'a@example.com', to: ['b@example.com'], subject: 'Hi', text: 'Hello' });

  it('sends the credential and the statuses as the API wants them', async () => {
    script = [
      (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"messages":[],"hasNext":false,"page":1}');
      },
    ];
    await client({ token: 'jwt', apiKey: undefined }).emails.list({ statuses: ['sent', 'failed'], take: 5 });
    expect(seen[0].headers.authorization).toBe('Bearer jwt');
    const query = new URL(seen[0].url, baseUrl).searchParams;
    expect(query.get('statuses')).toBe('sent,failed');
    expect(query.get('take')).toBe('5');
  });

  it('repeats a 429 after its Retry-After, whatever the method', async () => {
    script = [answer(429, { 'Retry-After': '1' })];
    const startedAt = Date.now();
    await expect(send(client({ idempotencyKeys: false }))).resolves.toMatchObject({ id: 'm1' });
    expect(seen.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
  });

  it('hands a 429 back as a MailroomError when retrying is off, or the wait asked is too long', async () => {
    script = [answer(429, { 'Retry-After': '1' }), answer(429, { 'Retry-After': '120' })];
    const off = await send(client({ retries: 0 })).catch((error: unknown) => error);
    expect(off).toBeInstanceOf(MailroomError);
    expect(off).toMatchObject({ status: 429, title: 'Refused', retryAfter: 1, requestId: 'from-the-body' });
    const tooLong = await send(client()).catch((error: unknown) => error);
    expect(tooLong).toMatchObject({ status: 429, retryAfter: 120 });
    expect(seen).toHaveLength(2);
  });

  it('repeats a 5xx for a GET, and for a send only with its Idempotency-Key', async () => {
    script = [answer(503, { 'Retry-After': '0' })];
    await expect(client().emails.get('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(seen).toHaveLength(2);

    seen = [];
    script = [answer(503, { 'Retry-After': '0' })];
    await expect(send(client())).resolves.toMatchObject({ id: 'm1' });
    const keys = seen.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);

    seen = [];
    script = [answer(503, { 'Retry-After': '0' })];
    const refused = await send(client({ idempotencyKeys: false })).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['idempotency-key']).toBeUndefined();
  });

  it('repeats a 409 only for a request with an Idempotency-Key (its first is still in flight)', async () => {
    const inFlight = () => answer(409, {}, problem(409, 'Conflict'));
    script = [inFlight()];
    await expect(send(client())).resolves.toMatchObject({ id: 'm1' });
    expect(seen).toHaveLength(2);

    seen = [];
    script = [inFlight()];
    expect(await send(client({ idempotencyKeys: false })).catch((error: unknown) => error)).toMatchObject({
      status: 409,
    });
    expect(seen).toHaveLength(1);
  });

  it('repeats after no answer only where a repeat cannot act twice', async () => {
    script = [drop];
    await expect(client().emails.get('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(seen).toHaveLength(2);

    seen = [];
    script = [drop];
    const lost = await client()
      .domains.create({ name: 'example.com' })
      .catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(MailroomError);
    expect(lost).toMatchObject({ status: 0, title: 'Network error' });
    expect(seen).toHaveLength(1);
  });

  it('stops after its retries, with the last answer', async () => {
    script = [500, 502, 503].map((status) => answer(status, { 'Retry-After': '0' }));
    const error = await client({ retries: 2 })
      .emails.get('m1')
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 503, requestId: 'from-the-body' });
    expect(seen).toHaveLength(3);
  });

  it('reads the request id from the header when the body is no problem', async () => {
    script = [answer(502, {}, '<html>Bad gateway</html>')];
    const error = await client({ retries: 0 })
      .emails.get('m1')
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 502, requestId: 'rid-1', detail: '<html>Bad gateway</html>', errors: [] });
  });
});
