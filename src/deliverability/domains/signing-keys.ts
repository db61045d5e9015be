import { Injectable } from '@nestjs/common';
import { createPrivateKey, KeyObject } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DkimKeyCipher } from './dkim-key-cipher';
import { domainsAbove } from './domain-name';
import { DomainsRepository } from './domains.repository';

/** A message's signing key as stored: found when the message is claimed, opened when it is sent. */
export interface SealedSigningKey {
  domainId: string;
  domainName: string;
  keySelector: string;
  sealed: Buffer;
}

/** What a DKIM signature is made with. */
export interface DkimSigningKey {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject;
}

// Keys of this many domains stay imported in a worker; beyond, the oldest is dropped.
export const CACHED_KEYS = 1_000;

/** The signing keys of the messages delivery takes (docs/delivery-and-deliverability.md). */
@Injectable()
export class SigningKeys {
  /**
   * Imported keys by domain id. Importing one (about 0.35 ms of CPU) costs as much as the
   * signature itself; opening it, 6 µs. Safe to keep: a domain's key never changes under its id,
   * and the look-up that names the id runs for every delivery, so a deleted or unverified domain
   * stops signing all the same.
   */
  private readonly imported = new Map<string, KeyObject>();

  constructor(
    private readonly cipher: DkimKeyCipher,
    private readonly domains: DomainsRepository,
  ) {}

  /**
   * For each message whose sender is at or under a verified domain of its owner, the key of the
   * most specific such domain; one statement for a batch of messages, in the caller's transaction.
   */
  async lookUp(
    manager: EntityManager,
    messages: { id: string; userId: string; senderAddress: string }[],
  ): Promise<Map<string, SealedSigningKey>> {
    const found = new Map<string, SealedSigningKey>();
    const candidates = messages.flatMap((m) =>
      domainsAbove(m.senderAddress).map((name) => ({ messageId: m.id, userId: m.userId, name })),
    );
    if (candidates.length === 0) return found;
    // Each message's candidate names: its sender's domain and those above it; the longest verified one wins.
    for (const { messageId, ...key } of await this.domains.longestVerifiedOf(manager, candidates))
      found.set(messageId, key);
    return found;
  }

  /**
   * The key ready to sign with. Throws when it does not decrypt (DATA_ENCRYPTION_KEY differs
   * between processes): that delivery is deferred, not sent without its signature.
   */
  open({ domainId, domainName, keySelector, sealed }: SealedSigningKey): DkimSigningKey {
    let privateKey = this.imported.get(domainId);
    if (!privateKey) {
      let der: Buffer;
      try {
        der = this.cipher.open(sealed, domainId);
      } catch {
        throw new Error(
          `The DKIM key of sending domain ${domainId} does not decrypt: DATA_ENCRYPTION_KEY is not the one it was stored with`,
        );
      }
      privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      if (this.imported.size >= CACHED_KEYS) this.imported.delete(this.imported.keys().next().value!);
      this.imported.set(domainId, privateKey);
    }
    return { domainName, keySelector, privateKey };
  }
}
