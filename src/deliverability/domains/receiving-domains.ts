import { Injectable } from '@nestjs/common';
import { DomainsRepository } from './domains.repository';

/** Which user receives mail for a domain name (docs/inbound.md), for the inbound listener. */
@Injectable()
export class ReceivingDomains {
  constructor(private readonly domains: DomainsRepository) {}

  /** `name` in A-labels, lower case; undefined when nobody receives for it. */
  receiverOf(name: string): Promise<string | undefined> {
    return this.domains.receiverOf(name);
  }
}
