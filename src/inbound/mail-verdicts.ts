import { Injectable, Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import type { Readable } from 'node:stream';
import { isIP } from 'node:net';
import { dmarc, DMARCResult, DNSResolver, spf, SPFResult } from 'mailauth';
import { AppConfig } from '../platform/config/app-config';
import type { SpooledMessage } from '../platform/smtp/spooled-message';
import { DKIM_CHUNK_BYTES, verifyDkim } from './capped-dkim';

export const AUTHENTICATION_VERDICTS = [
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
] as const;
export type AuthenticationVerdict = (typeof AUTHENTICATION_VERDICTS)[number];

export interface MailVerdictsOf {
  spf: AuthenticationVerdict;
  dkim: AuthenticationVerdict;
  dmarc: AuthenticationVerdict;
}

/** Where a mail came from, as the SMTP session saw it. */
export interface MailOrigin {
  /** The connecting address. */
  ip: string;
  /** The name given at EHLO/HELO. */
  helo: string;
  /** The envelope sender; '' for `<>`. */
  mailFrom: string;
}

/**
 * Each query waits this long, twice; the whole check gives up (temperror) after
 * VERDICTS_DEADLINE_MS. A sender's DNS that never answers costs its own mail these seconds and
 * nobody else's: the check holds none of the slots other mail waits for (ReceiveInboundMailUseCase).
 */
const QUERY_TIMEOUT_MS = 1_000;
const VERDICTS_DEADLINE_MS = 6_000;

/**
 * SPF, DKIM and DMARC verdicts on a received mail (docs/inbound.md), from mailauth (a maintained,
 * independent verifier) with DNS_SERVERS and the connecting address, as its authenticate() runs
 * them (ARC and BIMI aside) but verifying at most MAX_DKIM_SIGNATURES signatures. Stored for the
 * user to judge; nothing is refused for them. DKIM reads `pass` when any signature passes, else
 * the first signature's result.
 */
@Injectable()
export class MailVerdicts {
  private readonly logger = new Logger(MailVerdicts.name);

  constructor(private readonly config: AppConfig) {}

  async of(mail: SpooledMessage, origin: MailOrigin): Promise<MailVerdictsOf> {
    const stream = mail.stream(DKIM_CHUNK_BYTES);
    const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 2 });
    const servers = this.config.deliverability.dnsServers;
    if (servers.length > 0) resolver.setServers(servers);
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (deadline = setTimeout(() => resolve('late'), VERDICTS_DEADLINE_MS)));
    try {
      const result = await Promise.race([
        this.check(stream, origin, (name, type) => resolver.resolve(name, type) as Promise<string[]>),
        late,
      ]);
      if (result === 'late') {
        resolver.cancel();
        return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
      }
      return result;
    } catch (err) {
      // mailauth reads what it can; a mail it cannot read at all is judged by no one.
      this.logger.warn({ err }, 'Could not check the authentication of an inbound mail');
      return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
    } finally {
      clearTimeout(deadline);
      stream.destroy();
    }
  }

  /** What mailauth's authenticate() does for DKIM, SPF and DMARC, with the capped DKIM verifier. */
  private async check(mail: Readable, origin: MailOrigin, resolver: DNSResolver): Promise<MailVerdictsOf> {
    const ip = unmapped(origin.ip);
    const dkim = await verifyDkim(mail, { resolver, sender: origin.mailFrom });
    const helo = origin.helo || ip;
    const spfResult: SPFResult | false = await spf({
      ip,
      helo: isIP(helo) ? `[${helo}]` : helo,
      sender: origin.mailFrom,
      mta: this.config.inbound.mxHost,
      resolver,
    });
    const passed = dkim.results.filter((r) => r.status.result === 'pass');
    const dmarcResult: DMARCResult | false =
      dkim.headerFrom.length > 0 &&
      (await dmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: spfResult && spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
        dkimDomains: passed.map((r) => ({
          id: r.id,
          domain: r.signingDomain,
          aligned: r.status.aligned,
          underSized: r.status.underSized,
        })),
        resolver,
      }));
    const signature = passed[0] ?? dkim.results[0];
    return {
      spf: verdict(spfResult ? spfResult.status.result : 'none'),
      dkim: verdict(signature ? signature.status.result : 'none'),
      dmarc: verdict(dmarcResult ? dmarcResult.status.result : 'none'),
    };
  }
}

/** RFC 8601's other results (DKIM's `policy`, say) are none of docs/inbound.md's: neither pass nor fail. */
function verdict(result: string | undefined): AuthenticationVerdict {
  return AUTHENTICATION_VERDICTS.find((known) => known === result) ?? 'neutral';
}

/** An IPv4 client on a dual-stack socket is `::ffff:a.b.c.d`; SPF compares it as IPv4. */
function unmapped(ip: string): string {
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}
