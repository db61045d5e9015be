import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets at rest (DKIM private keys, webhook endpoint secrets): AES-256-GCM under a key
 * of one purpose, derived by HKDF from DATA_ENCRYPTION_KEY, so that what one purpose sealed never
 * opens under another. The sealed form is `iv ‖ tag ‖ ciphertext`; the owning row's id is bound in
 * as associated data, so a value copied into another row does not open.
 */
export class DataCipher {
  private readonly key: Buffer;

  /** `purpose` is the HKDF info: changing it makes every value sealed before unreadable. */
  constructor(masterKey: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, '', purpose, 32));
  }

  seal(plaintext: Buffer, rowId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(rowId));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws on anything this key did not seal for this row: tampered, truncated, or another key's. */
  open(sealed: Buffer, rowId: string): Buffer {
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('A sealed value is too short to be one.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(rowId))
      .setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }
}
