import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { releaseWhenAnswered } from './release-when-answered';

describe('releaseWhenAnswered', () => {
  it('releases once the answer is sent, and at once for a client that left before it was called', async () => {
    const released: string[] = [];
    const server = createServer((request, response) => {
      if (request.url === '/answered') {
        releaseWhenAnswered(request as Request, response as Response, () => released.push('answered'));
        response.end('ok');
        return;
      }
      // The client leaves before the handler gets to it (as during authentication).
      server.emit('arrived');
      request.socket.once('close', () =>
        setImmediate(() => {
          releaseWhenAnswered(request as Request, response as Response, () => released.push('gone'));
          server.emit('checked');
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await fetch(`http://127.0.0.1:${port}/answered`).then((r) => r.text());
      const checked = new Promise((resolve) => server.once('checked', resolve));
      server.once('arrived', () => leaving.destroy());
      const leaving = httpRequest({ host: '127.0.0.1', port, path: '/gone' });
      leaving.on('error', () => undefined);
      leaving.flushHeaders();
      await checked;
      expect(released.sort()).toEqual(['answered', 'gone']);
    } finally {
      server.close();
    }
  });
});
