// TRUST_PROXY (docs/configuration.md): behind a reverse proxy, the refused-key budget is the client's, not the
// proxy's. A real HTTP reverse proxy (node:http, appending the peer to X-Forwarded-For as nginx's
// $proxy_add_x_forwarded_for does) stands in front of the app on 127.0.0.1, the one trusted
// address; its clients connect to it from distinct loopback addresses. One client's 20 refused
// keys lock that client only; a client not behind the proxy cannot escape its budget, nor spend
// another's, with a forged X-Forwarded-For; IPv6 clients share a budget per /64.
import { createServer, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const PROXY = '127.0.0.1';
const unknownKey = (n: number) => `mr_${String(n).padStart(43, 'p')}`;

/** GET /user/messages at `port` from `from`, with `headers`: the status. */
function get(port: number, from: string, authorization: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/user/messages',
        localAddress: from,
        headers: { ...headers, Authorization: authorization },
      },
      (response) => {
        response.resume().on('end', () => resolve(response.statusCode!));
      },
    )
      .on('error', reject)
      .end();
  });
}

/** A reverse proxy to `target`: X-Forwarded-For gets the peer appended, X-Forwarded-Proto says https. */
function reverseProxy(target: number): Promise<Server> {
  const proxy = createServer((incoming, outgoing) => {
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target,
        localAddress: PROXY,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

describe('the refused-key budget behind a trusted reverse proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  let appPort: number;
  let proxy: Server;
  let proxyPort: number;
  let validKey: string;

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: `${PROXY},10.0.0.0/8` });
    await t.app.listen(0, '127.0.0.1');
    appPort = (t.app.getHttpServer().address() as AddressInfo).port;
    proxy = await reverseProxy(appPort);
    proxyPort = (proxy.address() as AddressInfo).port;
    const { body } = await t.http
      .post('/user/api-keys')
      .set(bearer(newUserId('proxied')))
      .send({ name: 'valid' })
      .expect(201);
    validKey = body.key;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await t?.close();
  });

  it('locks out only the client that spent 20 refused keys; the others valid keys keep working', async () => {
    const [offender, others] = ['127.0.0.2', ['127.0.0.3', '127.0.0.4', '127.0.0.5']];
    for (let n = 1; n <= 20; n++) expect(await get(proxyPort, offender, `Bearer ${unknownKey(n)}`)).toBe(401);
    expect(await get(proxyPort, offender, `Bearer ${unknownKey(21)}`)).toBe(429);
    expect(await get(proxyPort, offender, `Bearer ${validKey}`)).toBe(429);

    // 35 valid-key requests from the other clients of the proxy, as in the trial: every one served.
    const statuses: number[] = [];
    for (let n = 0; n < 35; n++) statuses.push(await get(proxyPort, others[n % 3], `Bearer ${validKey}`));
    expect(statuses).toEqual(Array(35).fill(200));
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy: a forged one neither escapes nor spends a budget', async () => {
    const spoofer = '127.0.0.9';
    for (let n = 1; n <= 20; n++) {
      // A fresh address each time, and then the address of a client behind the proxy.
      const forged = n % 2 ? `198.51.100.${n}` : '127.0.0.10';
      expect(await get(appPort, spoofer, `Bearer ${unknownKey(n)}`, { 'X-Forwarded-For': forged })).toBe(401);
    }
    expect(await get(appPort, spoofer, `Bearer ${validKey}`, { 'X-Forwarded-For': '198.51.100.99' })).toBe(429);
    // The client it named is untouched.
    expect(await get(proxyPort, '127.0.0.10', `Bearer ${validKey}`)).toBe(200);
  });

  it('counts IPv6 clients per /64: two addresses of one /64 share a budget, the next /64 has its own', async () => {
    // The trusted proxy's peer (127.0.0.1) says who its clients are; the test speaks as the proxy.
    const via = (client: string) => ({ 'X-Forwarded-For': `${client}, 10.1.2.3` });
    for (let n = 1; n <= 20; n++)
      expect(await get(appPort, PROXY, `Bearer ${unknownKey(n)}`, via('2001:db8:1:2::a'))).toBe(401);

    expect(await get(appPort, PROXY, `Bearer ${validKey}`, via('2001:db8:1:2:ffff::b'))).toBe(429);
    expect(await get(appPort, PROXY, `Bearer ${validKey}`, via('2001:db8:1:3::a'))).toBe(200);
    // IPv4-mapped IPv6 is the IPv4 client it carries.
    expect(await get(appPort, PROXY, `Bearer ${validKey}`, via('::ffff:192.0.2.1'))).toBe(200);
  });
});
