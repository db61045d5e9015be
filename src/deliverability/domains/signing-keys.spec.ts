import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { AppConfig } from '../../platform/config/app-config';
import { DkimKeyCipher } from './dkim-key-cipher';
import { DomainsRepository } from './domains.repository';
import { CACHED_KEYS, SigningKeys } from './signing-keys';
import type { Database } from '../../platform/database/database';

describe(SigningKeys.name, () => {
  const cipher = new DkimKeyCipher({
    deliverability: { encryptionKey: 'a-data-encryption-key-of-32-chars!!' },
  } as AppConfig);
  const der = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'der' });
  const domains = Array.from({ length: CACHED_KEYS + 1 }, () => {
    const domainId = randomUUID();
    return { domainId, domainName: 'example.com', keySelector: 'mr1', sealed: cipher.seal(der, domainId) };
  });

  it(`keeps the keys of ${CACHED_KEYS} domains imported, and past that forgets the oldest`, () => {
    const sut = new SigningKeys(cipher, new DomainsRepository({} as Database));
    const decrypt = jest.spyOn(cipher, 'open');

    for (const domain of domains.slice(0, CACHED_KEYS)) sut.open(domain);
    expect(decrypt).toHaveBeenCalledTimes(CACHED_KEYS);
    // All of them are held: opening the first again decrypts nothing.
    expect(sut.open(domains[0]).privateKey.asymmetricKeyType).toBe('rsa');
    expect(decrypt).toHaveBeenCalledTimes(CACHED_KEYS);

    // One more domain: the oldest (the first) is dropped, the second is still held.
    sut.open(domains[CACHED_KEYS]);
    sut.open(domains[1]);
    expect(decrypt).toHaveBeenCalledTimes(CACHED_KEYS + 1);
    sut.open(domains[0]);
    expect(decrypt).toHaveBeenCalledTimes(CACHED_KEYS + 2);
    expect(decrypt).toHaveBeenLastCalledWith(domains[0].sealed, domains[0].domainId);
  });
});
