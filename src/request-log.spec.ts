import type { IncomingMessage } from 'node:http';
import { TrustedProxies } from './platform/config/trusted-proxies';
import { loggedRequest, requestLogProps } from './request-log';

describe('loggedRequest', () => {
  it('keeps id, method and path, and nothing else of the request', () => {
    const request = { id: 'r1', method: 'GET', url: '/user/messages?take=5', headers: { authorization: 'Bearer x' } };

    expect(loggedRequest(request)).toEqual({ id: 'r1', method: 'GET', url: '/user/messages?take=5' });
  });

  it('names the unsubscribe route instead of writing its token', () => {
    const token = 'ab'.repeat(27);

    expect(loggedRequest({ id: 'r2', method: 'POST', url: `/unsubscribe/${token}` }).url).toBe('/unsubscribe/{token}');
    expect(loggedRequest({ id: 'r3', method: 'GET', url: `/unsubscribe/${token}?x=1` }).url).toBe(
      '/unsubscribe/{token}?x=1',
    );
    // Express matches routes whatever their case, so the log must too.
    expect(loggedRequest({ id: 'r5', method: 'POST', url: `/UnSubscribe/${token}` }).url).toBe('/unsubscribe/{token}');
    expect(loggedRequest({ id: 'r4', method: 'GET', url: `/user/unsubscribe/${token}` }).url).toBe(
      `/user/unsubscribe/${token}`,
    );
  });
});

describe('requestLogProps', () => {
  const request = (peer: string, forwardedFor?: string) =>
    ({
      socket: { remoteAddress: peer },
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      user: { id: 'u1' },
    }) as unknown as IncomingMessage & { user: { id: string } };

  it("records the client's address: behind a trusted proxy the one it forwards, else the peer whatever the header says", () => {
    const proxies = TrustedProxies.parse('10.0.0.1');

    expect(requestLogProps(request('10.0.0.1', '198.51.100.7'), proxies)).toEqual({
      userId: 'u1',
      clientAddress: '198.51.100.7',
    });
    expect(requestLogProps(request('::ffff:203.0.113.9', '198.51.100.7'), proxies).clientAddress).toBe('203.0.113.9');
  });
});
