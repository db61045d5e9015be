// Refused API keys cost a database look-up each, so each client address has a budget of 20 a
// minute (docs/api.md#smtp-submission, as on the submission port): the 21st attempt is refused with 429 and
// Retry-After, without a look-up, until the minute ends; valid keys from that address too (a
// valid key cannot be told from an unknown one without the look-up), JWTs not. Other addresses
// are not touched. Clients are node:http requests from distinct loopback addresses.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiKeysRepository } from '../../../src/auth/api-keys/api-keys.repository';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

const unknownKey = (n: number) => `mr_${String(n).padStart(43, 'x')}`;

describe('the budget of refused API keys per client address', () => {
  let t: TestApp;
  let port: number;
  let lookUps: jest.SpyInstance;
  let validKey: string;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const created = await fetch(`http://127.0.0.1:${port}/user/api-keys`, {
      method: 'POST',
      headers: { ...bearer(newUserId()), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'valid' }),
    });
    validKey = ((await created.json()) as { key: string }).key;
    // Watches the look-ups by hash, calling through to the real one.
    lookUps = jest.spyOn(t.app.get(ApiKeysRepository), 'holderOf');
  });
  afterAll(() => t?.close());

  function get(from: string, authorization: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/user/messages',
          localAddress: from,
          headers: { Authorization: authorization },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) }),
          );
        },
      );
      request.on('error', reject).end();
    });
  }

  it('refuses 20 unknown keys with 401 after a look-up each, then the address with 429 and no look-up', async () => {
    const from = '127.0.0.2';
    const before = lookUps.mock.calls.length;
    for (let n = 1; n <= 20; n++) {
      const answer = await get(from, `Bearer ${unknownKey(n)}`);
      expect(answer.status).toBe(401);
    }
    expect(lookUps.mock.calls.length - before).toBe(20);

    const limited = await get(from, `Bearer ${unknownKey(21)}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({
      status: 429,
      title: 'Too Many Requests',
      detail: expect.stringMatching(/API keys/),
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-limit']).toBe('20');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['ratelimit-reset'])).toBe(retryAfter);
    // A valid key from that address waits out the minute too; a JWT does not.
    expect((await get(from, `Bearer ${validKey}`)).status).toBe(429);
    expect(lookUps.mock.calls.length - before).toBe(20);
    expect((await get(from, bearer(newUserId()).Authorization)).status).toBe(200);

    // Another address has its own budget, and its valid key works.
    expect((await get('127.0.0.3', `Bearer ${unknownKey(1)}`)).status).toBe(401);
    expect((await get('127.0.0.3', `Bearer ${validKey}`)).status).toBe(200);
  });

  it('does not count valid keys, nor JWTs, against the address', async () => {
    const from = '127.0.0.4';
    for (let n = 1; n <= 19; n++) expect((await get(from, `Bearer ${unknownKey(n)}`)).status).toBe(401);
    for (let n = 1; n <= 5; n++) expect((await get(from, `Bearer ${validKey}`)).status).toBe(200);
    expect((await get(from, 'Bearer not-a-jwt')).status).toBe(401);
    // The 20th refused key is still looked up and refused as unknown; only the 21st try is limited.
    expect((await get(from, `Bearer ${unknownKey(20)}`)).status).toBe(401);
    expect((await get(from, `Bearer ${validKey}`)).status).toBe(429);
  });
});
