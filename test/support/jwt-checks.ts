// Hand-made JWTs and the checks docs/api.md#authentication asks of every refusal and acceptance, shared by the
// authentication suites.
import { createHmac } from 'node:crypto';
import type { JwtHeader } from 'jsonwebtoken';
import type { Response } from 'supertest';
import { storeMessage } from './factories';
import type { TestApp } from './test-app';

export const MESSAGES = '/user/messages';

export const base64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
export const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

/** A JWT assembled by hand, for what jsonwebtoken refuses to produce. */
export function handMadeToken(header: object, payload: object, signingKey?: string): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  const signature =
    signingKey === undefined ? '' : createHmac('sha256', signingKey).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

export const withUnknownCrit = (alg: string) =>
  ({ alg, crit: ['urn:example:audit'], 'urn:example:audit': true }) as JwtHeader;

/** docs/api.md#authentication and docs/api.md#errors: 401, the Bearer challenge, and a problem body. */
export function expectInvalidToken(response: Response): void {
  expect(response.status).toBe(401);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  expect(response.body).toEqual({
    type: expect.any(String),
    title: 'Unauthorized',
    status: 401,
    detail: expect.stringMatching(/\S/),
    requestId: response.headers['x-request-id'],
  });
  expect(response.body.requestId).toMatch(/\S/);
}

/** The caller is the token's `sub`: it sees the message stored for that user. */
export async function expectAcceptedAs(t: TestApp, userId: string, token: string): Promise<void> {
  const stored = await storeMessage(t.db, userId);
  const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`);
  expect(response.status).toBe(200);
  expect(response.body.messages.map((m: { id: string; userId: string }) => [m.id, m.userId])).toEqual([
    [stored.id, userId],
  ]);
}
