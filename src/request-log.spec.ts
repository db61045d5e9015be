import { loggedRequest } from './request-log';

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
