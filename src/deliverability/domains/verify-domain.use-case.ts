import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth';
import { NotFoundError } from '../../platform/problem/problem.errors';
import { Database } from '../../platform/database/database';
import { DnsRecords } from './dns-records';
import { DomainVerdicts, Verdict, whyNotPublished } from './domain-verdicts';
import { DomainsService } from './domains.service';
import { dmarcAdvice, spfAdvice } from './recommended-records';
import { DomainVerificationResponse, MissingDnsRecordResponse } from './dto/domain.dto';
import { SendingDomainEntity } from './entities/sending-domain.entity';
import { TxtLookup } from './txt-lookup';

/**
 * POST /domains/{id}/verify (docs/delivery-and-deliverability.md): looks the DKIM record up and records what DNS says. A
 * definite answer decides the status (found: verified; absent or another key: pending, so that
 * nothing is signed with a key verifiers cannot find); a DNS failure decides nothing. The SPF and
 * DMARC records are looked up at the same time, for advice only: they never change the status.
 */
@Injectable()
export class VerifyDomainUseCase {
  constructor(
    private readonly service: DomainsService,
    private readonly records: DnsRecords,
    private readonly dns: TxtLookup,
    private readonly database: Database,
    private readonly verdicts: DomainVerdicts,
  ) {}

  async execute(user: AuthUser, id: string): Promise<DomainVerificationResponse> {
    const domain = await this.service.find(user.id, id);
    const records = this.records.for(domain);
    const [dkim, spf, dmarc] = (['dkim', 'spf', 'dmarc'] as const).map((purpose) =>
      records.find((record) => record.purpose === purpose)!,
    );
    const [answer, spfAnswer, dmarcAnswer] = await Promise.all(
      [dkim, spf, dmarc].map((record) => this.dns.txt(record.name)),
    );
    const problem = 'failure' in answer ? answer.failure : whyNotPublished(answer.records, domain, dkim.name);
    const checked = 'failure' in answer ? domain : await this.record(user, id, problem);
    // Deleted while DNS was asked: gone, as for any later request.
    if (!checked) throw new NotFoundError(`Domain ${id}`);
    const missing: MissingDnsRecordResponse[] = problem === undefined ? [] : [{ ...dkim, reason: problem }];
    const recommended = [spfAdvice(spf, this.records.spfMechanisms, spfAnswer), dmarcAdvice(dmarc, dmarcAnswer)].filter(
      (advice) => advice !== undefined,
    );
    return { ...this.service.map(checked), missing, recommended };
  }

  /** The verdict (verified unless `problem`). A domain no longer verified stops receiving: its name may have passed to someone else, who must be able to verify and receive for it. */
  private record(user: AuthUser, id: string, problem: string | undefined): Promise<SendingDomainEntity | undefined> {
    const verdict: Verdict =
      problem === undefined
        ? { verified: true }
        : {
            verified: false,
            why: `Receiving stopped when verify no longer found the DKIM record (${problem}): verify the domain again, then turn receiving on.`,
          };
    return this.database.transaction((manager) => this.verdicts.record(manager, user.id, id, verdict, user));
  }
}
