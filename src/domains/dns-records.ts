import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { AppConfig } from '../config/app-config';
import { dkimRecord } from './dkim-record';

export const DNS_RECORD_PURPOSES = ['dkim', 'spf', 'dmarc'] as const;
export type DnsRecordPurpose = (typeof DNS_RECORD_PURPOSES)[number];

/** A record as the user types it into their DNS provider. */
export interface DnsRecord {
  type: 'TXT';
  name: string;
  value: string;
  purpose: DnsRecordPurpose;
}

/** The DKIM record's name: where verifiers look the key up (RFC 6376 §3.6.2.1). */
export const dkimRecordName = (domain: { name: string; selector: string }) => `${domain.selector}._domainkey.${domain.name}`;

/**
 * The records a sending domain needs (SPEC §9): its DKIM key, which `verify` checks and signing
 * depends on, and two hints that `verify` does not check. SPF is for the envelope sender's domain
 * (BOUNCE_DOMAIN when set, else the domain itself) and names the relay of SMTP_URL, the host that
 * hands mail on; DMARC starts at `p=none`, to watch reports before enforcing, with relaxed DKIM
 * alignment so that mail from a subdomain signed for the domain aligns.
 */
@Injectable()
export class DnsRecords {
  private readonly spfDomain: string | undefined;
  private readonly spf: string;

  constructor(config: AppConfig) {
    this.spfDomain = config.deliverability.bounceDomain;
    this.spf = `v=spf1 ${relayMechanism(config.delivery.smtpUrl)} ~all`;
  }

  for(domain: { name: string; selector: string; publicKey: string }): DnsRecord[] {
    return [
      { type: 'TXT', name: dkimRecordName(domain), value: dkimRecord(domain.publicKey), purpose: 'dkim' },
      { type: 'TXT', name: this.spfDomain ?? domain.name, value: this.spf, purpose: 'spf' },
      { type: 'TXT', name: `_dmarc.${domain.name}`, value: 'v=DMARC1; p=none; adkim=r; aspf=r', purpose: 'dmarc' },
    ];
  }
}

/** The SPF mechanism that names the relay's address; with no relay (the outbox), the domain's own MX hosts. */
function relayMechanism(smtpUrl: string | undefined): string {
  if (!smtpUrl) return 'mx';
  const host = new URL(smtpUrl).hostname.replace(/^\[|\]$/g, '');
  const version = isIP(host);
  return version === 0 ? `a:${host}` : `ip${version}:${host}`;
}
