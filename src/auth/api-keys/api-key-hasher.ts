import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';

const PREFIX = 'mr_';
const RANDOM_BYTES = 32;
/** `mr_` and 32 random bytes in unpadded base64url: exactly what newKey() makes, so anything else is refused unhashed. */
const KEY_FORMAT = /^mr_[A-Za-z0-9_-]{43}$/;

/** Whether a bearer token is meant as an API key rather than a JWT (whose first part is base64url JSON, `eyJ…`). */
export function isApiKeyToken(token: string): boolean {
  return token.startsWith(PREFIX);
}

/**
 * Makes API keys and the hash they are stored and looked up by. The hash is HMAC-SHA256 under a
 * key derived from DATA_ENCRYPTION_KEY, not a slow password hash: a key carries 256 random bits,
 * so no guessing can find it however fast each guess is, and a slow hash would only cost every
 * request that presents one. The HMAC key means a copy of the table alone cannot even test a
 * candidate key.
 */
@Injectable()
export class ApiKeyHasher {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.deliverability.encryptionKey, '', 'mailroom api key hash', 32));
  }

  newKey(): { key: string; hash: Buffer } {
    const key = PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
    return { key, hash: this.hash(key) };
  }

  /** The stored hash of a well-formed key; undefined for anything that cannot be one. */
  hashOf(key: string): Buffer | undefined {
    return KEY_FORMAT.test(key) ? this.hash(key) : undefined;
  }

  private hash(key: string): Buffer {
    return createHmac('sha256', this.key).update(key).digest();
  }
}
