// A HEAD answer has no body, whatever its status (docs/api.md#errors, RFC 9110 §9.3.2), including the
// refusals made before a request reaches a route: Node's parser failing (431 for headers over
// 16 KiB, 400 for a malformed header), a declared body over the limit, and the 503 of a draining
// server. Read over a raw socket, byte for byte: an HTTP client would hide a stray body.
import { AddressInfo, connect } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/app.setup';
import { HttpDrain } from '../../src/platform/http/http-drain';
import { bootTestApp, TestApp } from '../support/test-app';
import { withTimeout } from '../support/sockets';

const LONG_PATH = `/user/messages?x=${'a'.repeat(17 * 1024)}`;

/** Sends `request` on a new connection and resolves with every byte the server sent until it closed. */
function exchange(port: number, request: string): Promise<string> {
  const received: Buffer[] = [];
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.once('error', reject);
  });
  socket.write(request);
  return withTimeout(closed, 10_000, 'the server closed no connection').finally(() => socket.destroy());
}

function split(raw: string): { status: number; headers: string; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  expect(end).toBeGreaterThan(0);
  return { status: Number(raw.slice(9, 12)), headers: raw.slice(0, end), body: raw.slice(end + 4) };
}

const portOf = (app: NestExpressApplication) => (app.getHttpServer().address() as AddressInfo).port;

describe('HEAD refused early (docs/api.md#errors)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = portOf(t.app);
  });
  afterAll(() => t?.close());

  const cases = [
    {
      name: 'a URL over 16 KiB',
      status: 431,
      request: (method: string) => `${method} ${LONG_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`,
    },
    {
      name: 'a malformed header',
      status: 400,
      request: (method: string) => `${method} /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`,
    },
    {
      name: 'a declared body over 20 MiB',
      status: 404,
      request: (method: string) =>
        `${method} /sender/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${30 * 1024 * 1024}\r\nConnection: close\r\n\r\n`,
    },
    {
      name: 'no token',
      status: 401,
      request: (method: string) => `${method} /user/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    },
  ];

  it.each(cases)(
    'answers HEAD with $name with the head alone, where GET gets the problem',
    async ({ status, request }) => {
      const get = split(await exchange(port, request('GET')));
      expect(get.status).toBe(status);
      expect(JSON.parse(get.body)).toMatchObject({ status });

      const head = split(await exchange(port, request('HEAD')));
      expect(head.status).toBe(status);
      expect(head.headers).toMatch(/\r\nContent-Type: application\/problem\+json/i);
      expect(head.body).toBe('');
    },
  );

  it('answers HEAD while draining with the 503 head alone', async () => {
    const drain = new HttpDrain();
    const app = await createApp(t.config, drain);
    try {
      await app.listen(0, '127.0.0.1');
      const appPort = portOf(app);
      // Connected before the drain, so that the listener stays open for the request.
      const socket = connect({ port: appPort, host: '127.0.0.1' });
      await new Promise((resolve) => socket.once('connect', resolve));
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      const drained = drain.drain({ lingerMs: 5000 });
      socket.write('HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n');
      await withTimeout(closed, 10_000, 'the draining server closed no connection');
      const head = split(Buffer.concat(received).toString('latin1'));
      expect(head.status).toBe(503);
      expect(head.headers).toMatch(/\r\nRetry-After: \d+/i);
      expect(head.body).toBe('');
      await drained;
    } finally {
      await app.close();
    }
  });
});
