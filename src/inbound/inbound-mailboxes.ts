import { Injectable } from '@nestjs/common';
import { asciiDomain, domainOf } from '../platform/mail/addresses';
import { ReceivingDomains } from '../deliverability';

/** An envelope recipient the listener takes for a user's receiving domain. */
export interface InboundRecipient {
  userId: string;
  /** As given at RCPT TO. */
  address: string;
}

/** Decides at RCPT whether an address is at a receiving domain (docs/inbound.md), and whose. */
@Injectable()
export class InboundMailboxes {
  constructor(private readonly domains: ReceivingDomains) {}

  /** Any local part at a receiving domain (the domain exactly: its subdomains have MX records of their own). */
  async recipient(address: string): Promise<InboundRecipient | undefined> {
    if (address.lastIndexOf('@') < 1) return undefined;
    const domain = asciiDomain(domainOf(address));
    if (!domain) return undefined;
    const userId = await this.domains.receiverOf(domain);
    return userId === undefined ? undefined : { userId, address };
  }
}
