import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { IsDomainName, MAX_DOMAIN_NAME_LENGTH } from '../domain-name';
import { DNS_RECORD_PURPOSES } from '../dns-records';
import type { DnsRecordPurpose } from '../dns-records';

const PUBLIC_KEY_EXAMPLE = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv3c…IDAQAB';

export class CreateDomainDto {
  @ApiProperty({
    maxLength: MAX_DOMAIN_NAME_LENGTH,
    example: 'mail.example.com',
    description:
      'The domain your `sender` addresses are at; mail from its subdomains is signed too. Internationalized names are stored in A-label form (`bücher.example` → `xn--bcher-kva.example`).',
  })
  @IsString()
  @IsDomainName()
  name!: string;
}

export class UpdateDomainDto {
  @ApiProperty({
    example: true,
    description:
      'Receive mail at any address of this domain (docs/inbound.md): the domain must be verified, and no other user may receive for its name. Publish the `inbound` MX record of `dnsRecords` to have mail arrive',
  })
  @IsBoolean()
  receiving!: boolean;
}

export class DnsRecordResponse {
  @ApiProperty({ enum: ['TXT', 'MX'], example: 'TXT' })
  type!: 'TXT' | 'MX';

  @ApiProperty({
    example: 'mr202611a1b2c3d4._domainkey.mail.example.com',
    description: 'The full name, without a trailing dot',
  })
  name!: string;

  @ApiProperty({
    example: 'mr202611a1b2c3d4._domainkey',
    description:
      "The name relative to `zone`, as most DNS providers' forms ask for it; `@` is the zone itself. If your provider's zone is a parent of `zone` (you registered `mail.example.com` here, your provider hosts `example.com`), add the difference (`mr202611a1b2c3d4._domainkey.mail`), or give the full `name` where it is taken",
  })
  host!: string;

  @ApiProperty({
    example: 'mail.example.com',
    description:
      'The domain `host` is relative to: the domain as registered here (for the SPF record under BOUNCE_DOMAIN, that domain)',
  })
  zone!: string;

  @ApiProperty({
    example: `v=DKIM1; k=rsa; p=${PUBLIC_KEY_EXAMPLE}`,
    description:
      'The value as one string; a DNS provider that asks for strings of at most 255 characters takes it split anywhere',
  })
  value!: string;

  @ApiProperty({ example: 3600, description: 'A TTL to use, in seconds' })
  ttl!: number;

  @ApiProperty({
    enum: DNS_RECORD_PURPOSES,
    example: 'dkim',
    description:
      "`dkim`: required, checked by verify, signs your mail. `spf` (for the envelope sender's domain) and `dmarc`: recommended, not checked. `inbound`: the MX record of a receiving domain (`10 <host>`), not checked",
  })
  purpose!: DnsRecordPurpose;

  @ApiProperty({
    example: true,
    description:
      'true for DKIM, which decides verification; SPF and DMARC are recommended (better delivery), not required',
  })
  required!: boolean;
}

export class DkimKeyResponse {
  @ApiProperty({
    example: 'mr202611a1b2c3d4',
    description: 'The `s=` of the signatures; the key record lives at `<selector>._domainkey.<name>`',
  })
  selector!: string;

  @ApiProperty({
    example: PUBLIC_KEY_EXAMPLE,
    description:
      'RSA-2048, base64 of its DER SubjectPublicKeyInfo: the `p=` of the record. The private key is never shown',
  })
  publicKey!: string;
}

export class DomainResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'mail.example.com', description: 'Lower-cased; internationalized names in A-label form' })
  name!: string;

  @ApiProperty({
    enum: ['pending', 'verified'],
    example: 'pending',
    description: '`verified` once verify found the DKIM record: only then is mail signed',
  })
  status!: 'pending' | 'verified';

  @ApiProperty({ type: DkimKeyResponse })
  dkim!: DkimKeyResponse;

  @ApiProperty({ type: [DnsRecordResponse], description: 'The records to publish, exactly as given' })
  dnsRecords!: DnsRecordResponse[];

  @ApiProperty({
    example: false,
    description:
      'Whether mail to any address at this domain is received (`PATCH /domains/{id}`), listed by `GET /user/inbound`',
  })
  receiving!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why the service turned receiving off: a verify that no longer found the DKIM record puts the domain back to pending, and a pending domain receives nothing (its name may have passed to someone else). Null once you turn receiving on or off',
  })
  receivingStopped!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'Since when the record has been found; null while pending',
  })
  verifiedAt!: string | null;
}

export class MissingDnsRecordResponse extends DnsRecordResponse {
  @ApiProperty({
    example: 'no TXT record at mr202611a1b2c3d4._domainkey.mail.example.com',
    description: 'What the look-up found instead, or why it found nothing',
  })
  reason!: string;
}

export class DomainVerificationResponse extends DomainResponse {
  @ApiProperty({
    type: [MissingDnsRecordResponse],
    description:
      'The checked records verify could not find, each with the reason; empty when verified. A record DNS denied (no record, another key) makes a verified domain pending again; a DNS failure (timeout, SERVFAIL) leaves the status as it was',
  })
  missing!: MissingDnsRecordResponse[];

  @ApiProperty({
    type: [MissingDnsRecordResponse],
    description:
      'The recommended records (SPF, DMARC) verify did not find as they should be, each with the reason; they never change the status. Where the name has an SPF record of your own without our relay, `value` is that record merged with ours: a name may have only one SPF record, so publish it in place of yours',
  })
  recommended!: MissingDnsRecordResponse[];
}

export class DomainListResponse {
  @ApiProperty({ type: [DomainResponse], description: 'Oldest first' })
  domains!: DomainResponse[];
}
