import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { AppConfig } from '../../platform/config/app-config';
import { DkimKeyCipher } from './dkim-key-cipher';

const cipherUnder = (encryptionKey: string) => new DkimKeyCipher({ deliverability: { encryptionKey } } as AppConfig);

describe(DkimKeyCipher.name, () => {
  const sut = cipherUnder('a-data-encryption-key-of-32-chars!!');
  const domainId = randomUUID();
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'der',
  });

  it('opens what it sealed, and the sealed form does not contain the key', () => {
    const sealed = sut.seal(privateKey, domainId);

    expect(sut.open(sealed, domainId).equals(privateKey)).toBe(true);
    expect(sealed.length).toBe(12 + 16 + privateKey.length);
    expect(sealed.includes(privateKey.subarray(100, 132))).toBe(false);
  });

  it('seals the same key differently each time (a fresh IV)', () => {
    expect(sut.seal(privateKey, domainId).equals(sut.seal(privateKey, domainId))).toBe(false);
  });

  it.each([
    ['a flipped ciphertext bit', (s: Buffer) => (s[40] ^= 1)],
    ['a flipped tag bit', (s: Buffer) => (s[12] ^= 1)],
    ['a flipped IV bit', (s: Buffer) => (s[0] ^= 1)],
  ])('refuses a sealed key with %s', (_, tamper) => {
    const sealed = sut.seal(privateKey, domainId);
    tamper(sealed);

    expect(() => sut.open(sealed, domainId)).toThrow();
  });

  it('refuses a sealed key that was cut short, or moved to another domain, or sealed under another master key', () => {
    const sealed = sut.seal(privateKey, domainId);

    expect(() => sut.open(sealed.subarray(0, sealed.length - 1), domainId)).toThrow();
    expect(() => sut.open(sealed.subarray(0, 27), domainId)).toThrow('too short');
    expect(() => sut.open(sealed, randomUUID())).toThrow();
    expect(() => cipherUnder('another-data-encryption-key-32-chars').open(sealed, domainId)).toThrow();
  });
});
