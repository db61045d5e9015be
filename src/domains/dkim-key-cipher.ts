import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts DKIM private keys at rest (SPEC §9): AES-256-GCM under a key of its own purpose,
 * derived by HKDF from DATA_ENCRYPTION_KEY. The sealed form is `iv ‖ tag ‖ ciphertext`; the
 * domain's id is bound in as associated data, so a key copied into another row does not open.
 */
@Injectable()
export class DkimKeyCipher {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(
      hkdfSync('sha256', config.deliverability.encryptionKey, '', 'mailroom dkim private key', 32),
    );
  }

  seal(plaintext: Buffer, domainId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(domainId));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws on anything this key did not seal for this domain: tampered, truncated, or another key's. */
  open(sealed: Buffer, domainId: string): Buffer {
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('A sealed DKIM key is too short to be one.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(domainId))
      .setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }
}
