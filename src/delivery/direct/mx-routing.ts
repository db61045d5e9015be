import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Site } from './site-limits';

/** Each query to a server waits this long, and is tried this often (as domain verification's look-ups). */
const QUERY_TIMEOUT_MS = 2_000;
const TRIES = 2;
/**
 * How long an MX answer is kept. Node's resolver gives no TTL for MX records; a minute is shorter
 * than almost any MX record's TTL, and spares a query per message to a busy domain.
 */
export const MX_ANSWER_KEPT_MS = 60_000;
/** Domains whose answers are kept at most: beyond, the expired go, then the oldest. */
const MAX_KEPT_ANSWERS = 10_000;

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
  /** One resolver (one c-ares channel and its sockets) for every look-up, not one per message. */
  private readonly resolver: Resolver;
  /** Each domain's MX answer as looked up lately, so that a burst to one domain asks once. */
  private readonly answers = new Map<string, { records: Promise<MxAnswer>; until: number }>();

  constructor(
    dnsServers: readonly string[],
    /** In [0, 1): the order of equal preferences, drawn again for every route. */
    private readonly random: () => number = Math.random,
    /** How long an MX answer (or a domain's non-existence) is kept; a failed look-up is not kept. */
    private readonly keepMs = MX_ANSWER_KEPT_MS,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: TRIES });
    if (dnsServers.length > 0) this.resolver.setServers([...dnsServers]);
  }

  async route(domain: string): Promise<DomainRoute> {
    const answer = await this.mxAnswer(domain.toLowerCase());
    if ('code' in answer) {
      if (answer.code === 'ENOTFOUND') return noSuchDomain(domain);
      return lookupFailed(domain, 'MX', answer.code);
    }
    const { records } = answer;
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
    const { resolver } = this;
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    return [...v4, ...v6];
  }

  /** No MX: the domain is its own host when it has an address (RFC 5321 §5.1). */
  private async implicitMx(domain: string): Promise<DomainRoute> {
    const { resolver } = this;
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

  /**
   * The domain's MX records (none: ENODATA), or the code of a failed look-up: from the answers
   * kept, else asked once for every delivery that wants it meanwhile. Only answers are kept
   * (records, no records, no such domain: RFC 2308's negative caching); a failure is asked again.
   */
  private mxAnswer(domain: string): Promise<MxAnswer> {
    const kept = this.answers.get(domain);
    if (kept && kept.until > this.now()) return kept.records;
    const records = this.resolver.resolveMx(domain).then(
      (found): MxAnswer => ({ records: found }),
      (error: unknown): MxAnswer => (codeOf(error) === 'ENODATA' ? { records: [] } : { code: codeOf(error) }),
    );
    // Kept while in flight too, so that simultaneous deliveries share one query.
    const entry = { records, until: Number.POSITIVE_INFINITY };
    this.answers.set(domain, entry);
    void records.then((answer) => {
      if (this.answers.get(domain) !== entry) return;
      const keep = !('code' in answer) || answer.code === 'ENOTFOUND';
      if (keep) entry.until = this.now() + this.keepMs;
      else this.answers.delete(domain);
    });
    if (this.answers.size > MAX_KEPT_ANSWERS) this.forgetExpired();
    return records;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [domain, { until }] of this.answers) if (until <= now) this.answers.delete(domain);
    // Still too many (a flood of distinct domains): the oldest go, as a Map keeps insertion order.
    for (const domain of this.answers.keys()) {
      if (this.answers.size <= MAX_KEPT_ANSWERS) break;
      this.answers.delete(domain);
    }
  }
}

type MxAnswer = { records: { exchange: string; priority: number }[] } | { code: string | undefined };

/**
 * The longest site kept as it is: the site is delivery_sites' key, and PostgreSQL's B-tree index
 * takes at most about 2,700 bytes a key (a domain of 50 MX hosts with long names makes 6,000).
 */
export const MAX_SITE_CHARS = 1_000;

/**
 * The site a set of MX hosts makes (site-limits.ts): lower-cased, sorted, joined by commas. One
 * longer than MAX_SITE_CHARS keeps the hosts that fit, then a digest of the whole set, so that two
 * different sets still make two sites; its connection limit is read from the hosts kept.
 */
export function siteOf(hosts: readonly string[]): Site {
  const sorted = [...new Set(hosts.map((host) => host.toLowerCase()))].sort();
  const site = sorted.join(',');
  if (site.length <= MAX_SITE_CHARS) return site;
  const digest = `+${createHash('sha256').update(site).digest('hex')}`;
  const kept: string[] = [];
  let length = digest.length;
  for (const host of sorted) {
    if (length + host.length + 1 > MAX_SITE_CHARS) break;
    kept.push(host);
    length += host.length + 1;
  }
  return [...kept, digest].join(',');
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
