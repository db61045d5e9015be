import { Resolver } from 'node:dns/promises';
import type { Site } from './site-limits';

/** Each query to a server waits this long, and is tried this often (as domain verification's look-ups). */
const QUERY_TIMEOUT_MS = 2_000;
const TRIES = 2;

/**
 * Where a domain's mail goes: its MX hosts in the order to try them and the site they make, or why
 * it goes nowhere: a reply as a server would give it at RCPT TO (`permanent` for the domain's
 * own answer, null MX or no such domain; else a DNS failure worth another try).
 */
export type DomainRoute = { hosts: string[]; site: Site } | { failure: { reply: string; permanent: boolean } };

/**
 * Routing of direct delivery (docs/delivery-and-deliverability.md#direct-delivery): a domain's MX
 * records through DNS_SERVERS, by preference with equal preferences shuffled, the domain itself
 * when it has none (RFC 5321 §5.1), nowhere for a null MX (RFC 7505) or a domain that does not
 * exist; and the addresses of a host, looked up through the same servers.
 */
export class MxRouting {
  constructor(
    private readonly dnsServers: readonly string[],
    /** In [0, 1): the order of equal preferences. */
    private readonly random: () => number = Math.random,
  ) {}

  async route(domain: string): Promise<DomainRoute> {
    let records: { exchange: string; priority: number }[];
    try {
      records = await this.resolver().resolveMx(domain);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOTFOUND') return noSuchDomain(domain);
      if (code !== 'ENODATA') return lookupFailed(domain, 'MX', code);
      records = [];
    }
    // RFC 7505: "0 ." says the domain takes no mail; the resolver gives its root exchange as ''.
    if (records.some(({ exchange }) => exchange === '' || exchange === '.'))
      return {
        failure: {
          reply: `550 5.1.10 Recipient address rejected: ${domain} accepts no mail (null MX, RFC 7505)`,
          permanent: true,
        },
      };
    if (records.length === 0) return this.implicitMx(domain);
    const hosts = this.inPreferenceOrder(records);
    return { hosts, site: siteOf(hosts) };
  }

  /** A host's IPv4 then IPv6 addresses; none when it has neither (or its look-up failed: the next host is tried). */
  async addressesOf(host: string): Promise<string[]> {
    const resolver = this.resolver();
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    return [...v4, ...v6];
  }

  /** No MX: the domain is its own host when it has an address (RFC 5321 §5.1). */
  private async implicitMx(domain: string): Promise<DomainRoute> {
    const resolver = this.resolver();
    const answers = await Promise.allSettled([resolver.resolve4(domain), resolver.resolve6(domain)]);
    if (answers.some((answer) => answer.status === 'fulfilled' && answer.value.length > 0))
      return { hosts: [domain], site: siteOf([domain]) };
    const codes = answers.map((answer) => (answer.status === 'rejected' ? codeOf(answer.reason) : 'ENODATA'));
    if (codes.every((code) => code === 'ENODATA' || code === 'ENOTFOUND'))
      return {
        failure: {
          reply: `550 5.1.2 Recipient address rejected: ${domain} has no MX and no address record`,
          permanent: true,
        },
      };
    return lookupFailed(
      domain,
      'A/AAAA',
      codes.find((code) => code !== 'ENODATA' && code !== 'ENOTFOUND'),
    );
  }

  private inPreferenceOrder(records: { exchange: string; priority: number }[]): string[] {
    const keyed = records.map((record) => ({ ...record, shuffle: this.random() }));
    keyed.sort((a, b) => a.priority - b.priority || a.shuffle - b.shuffle);
    return [...new Set(keyed.map(({ exchange }) => exchange.toLowerCase().replace(/\.$/, '')))];
  }

  private resolver(): Resolver {
    const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: TRIES });
    if (this.dnsServers.length > 0) resolver.setServers(this.dnsServers);
    return resolver;
  }
}

/** The site a set of MX hosts makes (site-limits.ts): lower-cased, sorted, joined by commas. */
export function siteOf(hosts: readonly string[]): Site {
  return [...new Set(hosts.map((host) => host.toLowerCase()))].sort().join(',');
}

function noSuchDomain(domain: string): DomainRoute {
  return {
    failure: {
      reply: `550 5.1.2 Recipient address rejected: the domain ${domain} does not exist (NXDOMAIN)`,
      permanent: true,
    },
  };
}

function lookupFailed(domain: string, type: string, code: string | undefined): DomainRoute {
  return {
    failure: {
      reply: `451 4.4.3 The ${type} look-up of ${domain} failed (${code ?? 'no answer'}), will try again`,
      permanent: false,
    },
  };
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | undefined)?.code;
}
