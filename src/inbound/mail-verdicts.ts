import { Injectable, Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import type { Readable } from 'node:stream';
import { authenticate, AuthenticateResult } from 'mailauth';
import { AppConfig } from '../config/app-config';

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

/** Each query waits this long, twice; the whole check gives up (temperror) after VERDICTS_DEADLINE_MS. */
const QUERY_TIMEOUT_MS = 2_000;
const VERDICTS_DEADLINE_MS = 20_000;

/**
 * SPF, DKIM and DMARC verdicts on a received mail (SPEC §13), from mailauth (a maintained,
 * independent verifier) with DNS_SERVERS and the connecting address. Stored for the user to
 * judge; nothing is refused for them. DKIM reads `pass` when any signature passes, else the first
 * signature's result.
 */
@Injectable()
export class MailVerdicts {
  private readonly logger = new Logger(MailVerdicts.name);

  constructor(private readonly config: AppConfig) {}

  async of(mail: Readable, origin: MailOrigin): Promise<MailVerdictsOf> {
    const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 2 });
    const servers = this.config.deliverability.dnsServers;
    if (servers.length > 0) resolver.setServers(servers);
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (deadline = setTimeout(() => resolve('late'), VERDICTS_DEADLINE_MS)));
    try {
      const result = await Promise.race([
        authenticate(mail, {
          ip: unmapped(origin.ip),
          helo: origin.helo,
          sender: origin.mailFrom,
          mta: this.config.inbound.mxHost,
          resolver: (name, type) => resolver.resolve(name, type) as Promise<string[]>,
          disableArc: true,
          disableBimi: true,
        }),
        late,
      ]);
      if (result === 'late') {
        resolver.cancel();
        return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
      }
      return verdictsOf(result);
    } catch (err) {
      // mailauth reads what it can; a mail it cannot read at all is judged by no one.
      this.logger.warn({ err }, 'Could not check the authentication of an inbound mail');
      return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
    } finally {
      clearTimeout(deadline);
      mail.destroy();
    }
  }
}

function verdictsOf(result: AuthenticateResult): MailVerdictsOf {
  const signatures = result.dkim.results ?? [];
  const dkim = signatures.find((s) => s.status.result === 'pass') ?? signatures[0];
  return {
    spf: verdict(result.spf ? result.spf.status.result : 'none'),
    dkim: verdict(dkim ? dkim.status.result : 'none'),
    dmarc: verdict(result.dmarc ? result.dmarc.status.result : 'none'),
  };
}

/** RFC 8601's other results (DKIM's `policy`, say) are none of SPEC §13's: neither pass nor fail. */
function verdict(result: string | undefined): AuthenticationVerdict {
  return AUTHENTICATION_VERDICTS.find((known) => known === result) ?? 'neutral';
}

/** An IPv4 client on a dual-stack socket is `::ffff:a.b.c.d`; SPF compares it as IPv4. */
function unmapped(ip: string): string {
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}
