import { randomUUID } from 'node:crypto';
import { sign, SignOptions } from 'jsonwebtoken';
import { TEST_JWT_SECRET } from './test-app';

/** A user id no other test uses, so that tests never see each other's messages. */
export function newUserId(label = 'user'): string {
  return `${label}-${randomUUID()}`;
}

export function tokenFor(sub: string, options: SignOptions = {}): string {
  return sign({}, TEST_JWT_SECRET, { algorithm: 'HS256', subject: sub, expiresIn: 600, ...options });
}

export function bearer(sub: string, options?: SignOptions): { Authorization: string } {
  return { Authorization: `Bearer ${tokenFor(sub, options)}` };
}
