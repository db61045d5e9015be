import { createHash, randomBytes } from 'node:crypto';

const RANDOM_BYTES = 32;
/** 32 random bytes in unpadded base64url: exactly what newOpaqueToken() makes. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * A session cookie or an invitation token: 256 random bits, kept only as its SHA-256. A fast hash
 * is enough for so many random bits (no guessing finds one), as for API keys.
 */
export function newOpaqueToken(): { token: string; hash: Buffer } {
  const token = randomBytes(RANDOM_BYTES).toString('base64url');
  return { token, hash: hashOfToken(token)! };
}

/** The stored hash of a well-formed token; undefined for anything that cannot be one (no look-up needed). */
export function hashOfToken(token: string): Buffer | undefined {
  return TOKEN_FORMAT.test(token) ? createHash('sha256').update(token).digest() : undefined;
}
