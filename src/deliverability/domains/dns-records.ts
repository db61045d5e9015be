import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { AppConfig } from '../../platform/config/app-config';
import type { DirectDeliveryConfig } from '../../platform/config/direct-delivery';
import { dkimRecord } from './dkim-record';

export const DNS_RECORD_PURPOSES = ['dkim', 'spf', 'dmarc', 'inbound'] as const;
export type DnsRecordPurpose = (typeof DNS_RECORD_PURPOSES)[number];

/** An hour: short enough that a mistake is mended soon, long enough not to burden resolvers. */
export const DNS_RECORD_TTL_SECONDS = 3600;

/** A record as the user types it into their DNS provider. */
export interface DnsRecord {
  type: 'TXT' | 'MX';
  /** The full name, without a trailing dot. */
  name: string;
  /** The name relative to `zone` (`@` for the zone's apex): what most DNS providers' forms ask for. */
  host: string;
  /** The domain as registered here (BOUNCE_DOMAIN for its SPF record), which `host` is relative to. */
  zone: string;
  value: string;
  ttl: number;
  purpose: DnsRecordPurpose;
  /** Whether verify depends on it: DKIM alone; SPF and DMARC are recommended, MX is for receiving. */
  required: boolean;
}

/** The DKIM record's name: where verifiers look the key up (RFC 6376 §3.6.2.1). */
export const dkimRecordName = (domain: { name: string; selector: string }) =>
  `${domain.selector}._domainkey.${domain.name}`;

/**
 * The records a sending domain needs (docs/delivery-and-deliverability.md): its DKIM key, which `verify` checks and signing
 * depends on, and two hints that `verify` does not check. SPF is for the envelope sender's domain
 * (BOUNCE_DOMAIN when set, else the domain itself) and names the host that hands mail on: the relay
 * of SMTP_URL, or under SMTP_URL=direct this server's own addresses; DMARC starts at `p=none`, to watch reports before enforcing, with relaxed DKIM
 * alignment so that mail from a subdomain signed for the domain aligns.
 */
@Injectable()
export class DnsRecords {
  private readonly spfDomain: string | undefined;
  /** The SPF mechanisms that authorize the host mail leaves from, which a domain's one SPF record must contain. */
  readonly spfMechanisms: readonly string[];
  private readonly mxHost: string;

  constructor(config: AppConfig) {
    this.spfDomain = config.deliverability.bounceDomain;
    this.spfMechanisms = config.delivery.direct
      ? directMechanisms(config.delivery.direct)
      : [relayMechanism(config.delivery.relays[0]?.url)];
    this.mxHost = config.inbound.mxHost;
  }

  /** A receiving domain (docs/inbound.md) also needs its MX record, naming the inbound listener's host. */
  for(domain: { name: string; selector: string; publicKey: string; receiving?: boolean }): DnsRecord[] {
    return [
      record('dkim', dkimRecordName(domain), domain.name, dkimRecord(domain.publicKey)),
      record(
        'spf',
        this.spfDomain ?? domain.name,
        this.spfDomain ?? domain.name,
        `v=spf1 ${this.spfMechanisms.join(' ')} ~all`,
      ),
      record('dmarc', `_dmarc.${domain.name}`, domain.name, 'v=DMARC1; p=none; adkim=r; aspf=r'),
      ...(domain.receiving ? [record('inbound', domain.name, domain.name, `10 ${this.mxHost}`, 'MX')] : []),
    ];
  }
}

function record(
  purpose: DnsRecordPurpose,
  name: string,
  zone: string,
  value: string,
  type: DnsRecord['type'] = 'TXT',
): DnsRecord {
  const host = name === zone ? '@' : name.slice(0, -(zone.length + 1));
  return { type, name, host, zone, value, ttl: DNS_RECORD_TTL_SECONDS, purpose, required: purpose === 'dkim' };
}

/**
 * The SPF mechanism that names the (first) relay's address; with no relay (the outbox), the domain's own MX hosts.
 * Relays tried after it (docs/delivery-and-deliverability.md#relays-and-failover) are the operator's to add.
 */
function relayMechanism(smtpUrl: string | undefined): string {
  if (!smtpUrl) return 'mx';
  return hostMechanism(new URL(smtpUrl).hostname.replace(/^\[|\]$/g, ''));
}

/**
 * Under SMTP_URL=direct (docs/delivery-and-deliverability.md#direct-delivery) mail leaves from this
 * server itself: each address connections bind to (DELIVERY_SOURCE_ADDRESSES), or, when the system
 * chooses, the addresses of the name said in EHLO (DELIVERY_HELO_NAME), which should resolve to them.
 */
function directMechanisms(direct: DirectDeliveryConfig): string[] {
  return direct.sourceAddresses.length > 0
    ? direct.sourceAddresses.map(hostMechanism)
    : [hostMechanism(direct.heloName)];
}

/** `ip4:`/`ip6:` for an address, `a:` for a name. */
function hostMechanism(host: string): string {
  const version = isIP(host);
  return version === 0 ? `a:${host}` : `ip${version}:${host}`;
}
