import { Injectable } from '@nestjs/common';
import { AuditLog } from '../../auth';
import type { AuthUser } from '../../auth';
import { asciiDomain } from '../../platform/mail/addresses';
import { NotFoundError, StateConflictError } from '../../platform/problem/problem.errors';
import { AppConfig } from '../../platform/config/app-config';
import { DnsRecords } from './dns-records';
import { DomainVerdicts, whyNotPublished } from './domain-verdicts';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { DomainResponse, UpdateDomainDto } from './dto/domain.dto';
import { SendingDomainEntity } from './entities/sending-domain.entity';
import { TxtLookup } from './txt-lookup';

/**
 * PATCH /domains/{id} (docs/inbound.md): receiving on or off. One account receives for a name; when
 * another holds it, its DKIM record is looked up first (as verify would): a holder DNS no longer
 * verifies, whose owner may never verify again, goes back to pending and gives the name up in the
 * same transaction that hands it over. A holder still verified, or a DNS failure, keeps it (409).
 */
@Injectable()
export class UpdateDomainUseCase {
  constructor(
    private readonly service: DomainsService,
    private readonly domains: DomainsRepository,
    private readonly records: DnsRecords,
    private readonly dns: TxtLookup,
    private readonly verdicts: DomainVerdicts,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  async execute(user: AuthUser, id: string, body: UpdateDomainDto): Promise<DomainResponse> {
    const userId = user.id;
    const domain = await this.service.find(userId, id);
    const { bounceDomain } = this.config.deliverability;
    // Its addresses are the service's own (docs/delivery-and-deliverability.md): bounces, complaints, postmaster@ and abuse@.
    if (body.receiving && bounceDomain && domain.name === asciiDomain(bounceDomain))
      throw new StateConflictError(
        `${domain.name} is this service's BOUNCE_DOMAIN: mail to it is read as bounces and complaints, so no account receives it.`,
      );
    // Only a verified domain may claim the name: nobody unverified makes us ask DNS about another's.
    const holder =
      body.receiving && domain.verifiedAt ? await this.domains.otherReceiving(domain.name, domain.id) : undefined;
    const why = holder && (await this.lapsed(holder));
    const result = await this.domains.setReceiving(
      userId,
      domain.id,
      body.receiving,
      holder && why
        ? (manager) => this.verdicts.record(manager, holder.userId, holder.id, { verified: false, why })
        : undefined,
      (manager) =>
        this.audit.record(manager, {
          by: user,
          action: 'domain.receiving_set',
          target: { type: 'domain', id: domain.id },
          detail: { name: domain.name, receiving: body.receiving },
        }),
    );
    if (result === undefined) throw new NotFoundError(`Domain ${id}`);
    if (result === 'pending')
      throw new StateConflictError(
        `${domain.name} is pending: verify it (POST /domains/${domain.id}/verify) before receiving mail for it.`,
      );
    if (result === 'taken')
      throw new StateConflictError(
        `Another account receives mail for ${domain.name}; one account receives for a domain name.`,
      );
    return this.service.map(result);
  }

  /** The holder's receivingStopped when DNS definitely no longer has its DKIM record; undefined otherwise. */
  private async lapsed(holder: SendingDomainEntity): Promise<string | undefined> {
    const dkim = this.records.for(holder).find((record) => record.purpose === 'dkim')!;
    const answer = await this.dns.txt(dkim.name);
    const problem = 'failure' in answer ? undefined : whyNotPublished(answer.records, holder, dkim.name);
    return (
      problem &&
      `Receiving stopped when another account turned receiving on for ${holder.name} and DNS no longer had this domain's DKIM record (${problem}): verify the domain again.`
    );
  }
}
