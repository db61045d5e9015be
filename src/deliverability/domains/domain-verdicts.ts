import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditLog } from '../../auth';
import type { AuthUser } from '../../auth';
import { EventOutbox } from '../../webhooks';
import { publishesKey } from './dkim-record';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { SendingDomainEntity } from './entities/sending-domain.entity';

/** A definite verdict: verified, or pending with the reason receiving stops (when it was on). */
export type Verdict = { verified: true } | { verified: false; why: string };

/**
 * What a DKIM look-up says of a domain, and the recording of a verdict with its event: shared by
 * verify and by a receiving switch that finds the name held by a domain DNS no longer verifies.
 */
@Injectable()
export class DomainVerdicts {
  constructor(
    private readonly service: DomainsService,
    private readonly domains: DomainsRepository,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditLog,
  ) {}

  /**
   * The verdict (docs/delivery-and-deliverability.md), and a domain.verified or domain.pending event when it changes the
   * status (docs/delivery-and-deliverability.md#webhooks), in the caller's transaction. Undefined when the domain is gone.
   * `by`: the account's own caller who asked (verify), whose change the audit log records with the event.
   */
  async record(
    manager: EntityManager,
    userId: string,
    id: string,
    verdict: Verdict,
    by?: AuthUser,
  ): Promise<SendingDomainEntity | undefined> {
    const result = await this.domains.setVerified(manager, userId, id, verdict);
    if (result?.changed) {
      const type = verdict.verified ? 'domain.verified' : 'domain.pending';
      await this.outbox.record(manager, [{ userId, type, data: { domain: this.service.map(result.domain) } }]);
      if (by)
        await this.audit.record(manager, {
          by,
          action: type,
          target: { type: 'domain', id },
          detail: { name: result.domain.name },
        });
    }
    return result?.domain;
  }
}

/** Undefined when the records at the name publish the domain's key, and so would a verifier read them. */
export function whyNotPublished(records: string[], domain: SendingDomainEntity, name: string): string | undefined {
  if (records.length === 0) return `no TXT record at ${name}`;
  const ours = records.filter((record) => publishesKey(record, domain.publicKey)).length;
  // A verifier reads one record of several, whichever comes first (RFC 6376 §3.6.2.2 leaves it undefined).
  if (records.length > 1)
    return `${records.length} TXT records at ${name}${ours > 0 ? ', one of them the key' : ''}: publish the key record alone`;
  return ours === 1 ? undefined : `the TXT record at ${name} is not the DKIM record of this domain's key`;
}
