import { Resolver } from 'node:dns/promises';
import { parsePolicy, resolvePolicy } from 'mailauth/lib/mta-sts';
import { asciiDomain } from '../../platform/mail/addresses';
import { DirectTrust } from './direct-trust';
import { fetchPolicyText } from './mta-sts-policy-fetch';
import type { MtaStsPolicy } from './mta-sts-source';

export type { MtaStsPolicy } from './mta-sts-source';

export interface MtaStsPoliciesOptions {
  /** DNS_SERVERS: every look-up, the TXT record's and the policy host's, goes to them (none: the system's). */
  dnsServers: string[];
  /** The CAs a policy host's certificate is checked against (the system's plus MTA_STS_CA_FILE); the system's alone when absent. */
  trust?: DirectTrust;
  /** Milliseconds since the epoch; injectable so a test can pass a policy's max_age. */
  clock?: () => number;
  fetchTimeoutMs?: number;
}

/** Shorter than the minute RFC 8461 §3.3 suggests: a delivery waits on it, within its job's lease. */
const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
const DNS_QUERY_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;
/**
 * After a failed fetch, how long the same TXT id is not fetched again: the five minutes RFC 8461
 * §3.3 suggests per policy id. Without it every delivery to a domain with a broken policy host
 * would wait out a fetch timeout, and the host would be hammered.
 */
export const FAILED_FETCH_PAUSE_MS = 5 * 60_000;
/** Per process, in memory: a bound so that mail to very many domains cannot grow it without end. */
const MAX_CACHED_DOMAINS = 10_000;

interface CachedPolicy {
  policy: MtaStsPolicy;
  expiresAt: number;
}

interface FailedFetch {
  id: string;
  error: string;
  retryAt: number;
}

/**
 * The MTA-STS policies (RFC 8461) direct delivery checks MX hosts against: the `_mta-sts` TXT
 * record read and the policy parsed by mailauth, the policy fetched over HTTPS here (with
 * MTA_STS_CA_FILE trusted: DirectTrust, shared with the MX connections), each kept for its max_age. A fetch is made only when the TXT id
 * differs from the cached policy's or that policy expired; a failed fetch or look-up keeps an
 * unexpired cached policy in force (RFC 8461 §5.1), so an attacker blocking the fetch cannot
 * downgrade a domain already known to enforce.
 */
export class MtaStsPolicies {
  private readonly resolver = new Resolver({ timeout: DNS_QUERY_TIMEOUT_MS, tries: DNS_TRIES });
  private readonly clock: () => number;
  private readonly fetchTimeoutMs: number;
  private readonly trust: DirectTrust;
  private readonly cache = new Map<string, CachedPolicy>();
  private readonly failures = new Map<string, FailedFetch>();
  /** One look-up per domain at a time: simultaneous deliveries to a domain share it. */
  private readonly pending = new Map<string, Promise<MtaStsPolicy>>();

  constructor(options: MtaStsPoliciesOptions) {
    if (options.dnsServers.length > 0) this.resolver.setServers(options.dnsServers);
    this.clock = options.clock ?? Date.now;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    this.trust = options.trust ?? new DirectTrust();
  }

  /** The policy of `domain` now: from the cache while its TXT id is unchanged, else fetched. */
  policyFor(domain: string): Promise<MtaStsPolicy> {
    const name = hostName(domain);
    const pending = this.pending.get(name);
    if (pending) return pending;
    const lookUp = this.lookUp(name).finally(() => this.pending.delete(name));
    this.pending.set(name, lookUp);
    return lookUp;
  }

  /**
   * Whether the policy lets mail go to `mxHost` (RFC 8461 §4.1): always under `none`; else when
   * the host is one of the policy's names, or one label followed by the domain of a `*.` pattern
   * (`*.example.com` covers `mx1.example.com`, neither `example.com` nor `a.mx1.example.com`).
   * mailauth's validateMx is not used: its wildcard covers any number of labels.
   */
  matches(policy: MtaStsPolicy, mxHost: string): boolean {
    if (policy.mode === 'none') return true;
    const host = hostName(mxHost);
    return policy.mx.some((pattern) => {
      const wanted = pattern.trim();
      if (!wanted.startsWith('*.')) return hostName(wanted) === host;
      const firstDot = host.indexOf('.');
      return firstDot > 0 && host.slice(firstDot + 1) === hostName(wanted.slice(2));
    });
  }

  /** The id of the domain's `_mta-sts` TXT record, false when it has none (mailauth reads the record). */
  protected lookUpPolicyId(domain: string): Promise<string | false> {
    return resolvePolicy(domain, {
      resolver: (name, type) => this.resolver.resolve(name, type) as Promise<string[][]>,
    });
  }

  /** The policy file's text (the seam a unit test replaces to count fetches without a network). */
  protected fetchPolicyText(domain: string): Promise<string> {
    return fetchPolicyText(domain, {
      resolver: this.resolver,
      trust: this.trust.context,
      timeoutMs: this.fetchTimeoutMs,
    });
  }

  private async lookUp(domain: string): Promise<MtaStsPolicy> {
    const cached = this.unexpired(domain);
    let id: string | false;
    try {
      id = await this.lookUpPolicyId(domain);
    } catch (err) {
      return cached ?? { ...noPolicy(), error: `_mta-sts.${domain} TXT look-up failed: ${messageOf(err)}` };
    }
    // A TXT record gone does not end a cached policy before its max_age (RFC 8461 §5.1).
    if (id === false) return cached ?? noPolicy();
    if (cached?.id === id) return cached;
    const failed = this.failures.get(domain);
    if (failed?.id === id && failed.retryAt > this.clock()) return cached ?? { ...noPolicy(), id, error: failed.error };
    try {
      const policy = this.read(await this.fetchPolicyText(domain), id);
      this.failures.delete(domain);
      remember(this.cache, domain, { policy, expiresAt: this.clock() + (policy.maxAge ?? 0) * 1000 });
      return policy;
    } catch (err) {
      const error = `policy of ${domain} unavailable: ${messageOf(err)}`;
      remember(this.failures, domain, { id, error, retryAt: this.clock() + FAILED_FETCH_PAUSE_MS });
      return cached ?? { ...noPolicy(), id, error };
    }
  }

  private unexpired(domain: string): MtaStsPolicy | undefined {
    const cached = this.cache.get(domain);
    if (cached && cached.expiresAt > this.clock()) return cached.policy;
    this.cache.delete(domain);
    return undefined;
  }

  private read(text: string, id: string): MtaStsPolicy {
    const parsed = parsePolicy(text);
    return { mode: parsed.mode, mx: parsed.mx ?? [], maxAge: parsed.maxAge, id };
  }
}

/** A fresh one each time: callers may change what they are given. */
function noPolicy(): MtaStsPolicy {
  return { mode: 'none', mx: [] };
}

/** Lower-case A-labels without the root's dot, as MX records and policies may write a name. */
function hostName(name: string): string {
  const trimmed = name.trim().replace(/\.$/, '').toLowerCase();
  return asciiDomain(trimmed) || trimmed;
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_CACHED_DOMAINS) map.delete(map.keys().next().value as string);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message || ((err as NodeJS.ErrnoException).code ?? err.name) : String(err);
}
