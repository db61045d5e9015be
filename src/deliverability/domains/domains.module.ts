import { Module } from '@nestjs/common';
import { DkimKeyCipher } from './dkim-key-cipher';
import { DnsRecords } from './dns-records';
import { DomainVerdicts } from './domain-verdicts';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { ReceivingDomains } from './receiving-domains';
import { SigningKeys } from './signing-keys';
import { TxtLookup } from './txt-lookup';
import { UpdateDomainUseCase } from './update-domain.use-case';
import { VerifyDomainUseCase } from './verify-domain.use-case';

/** Sending domains: their endpoints, DKIM keys and DNS check, and the signing key delivery asks for. */
@Module({
  controllers: [DomainsController],
  providers: [
    DkimKeyCipher,
    DnsRecords,
    TxtLookup,
    DomainsRepository,
    DomainsService,
    DomainVerdicts,
    VerifyDomainUseCase,
    UpdateDomainUseCase,
    SigningKeys,
    ReceivingDomains,
  ],
  exports: [SigningKeys, ReceivingDomains],
})
export class DomainsModule {}
