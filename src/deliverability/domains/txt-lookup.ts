import { Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { AppConfig, ConfigurationError } from '../../platform/config/app-config';

/** Each query to a server waits this long, and is tried this often, before the resolver gives up. */
const QUERY_TIMEOUT_MS = 2_000;
const TRIES = 2;
/** However many servers there are: a verify request answers within this. */
export const LOOKUP_DEADLINE_MS = 5_000;

/** What DNS said: the TXT records at a name (none is an answer too), or why it said nothing usable. */
export type TxtAnswer = { records: string[] } | { failure: string };

/**
 * TXT look-ups through DNS_SERVERS (the system's resolvers when empty), bounded in time. A
 * record's character-strings (at most 255 bytes each, RFC 1035 §3.3.14) are joined, as a DKIM
 * verifier joins them (RFC 6376 §3.6.2.2).
 */
@Injectable()
export class TxtLookup {
  private readonly servers: string[];

  constructor(config: AppConfig) {
    this.servers = config.deliverability.dnsServers;
    // Checked at start-up: c-ares takes only IP addresses, and a bad entry must stop the process, not fail each verify.
    try {
      this.resolver();
    } catch (error) {
      throw new ConfigurationError(
        `DNS_SERVERS must list IP addresses with optional ports (1.1.1.1,[::1]:53): ${(error as Error).message}`,
      );
    }
  }

  async txt(name: string): Promise<TxtAnswer> {
    const resolver = this.resolver();
    const deadline = setTimeout(() => resolver.cancel(), LOOKUP_DEADLINE_MS);
    try {
      return { records: (await resolver.resolveTxt(name)).map((strings) => strings.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      // The name, or a TXT record at it, does not exist: a definite answer.
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { records: [] };
      return { failure: FAILURES[code ?? ''] ?? `the DNS look-up failed (${code ?? (error as Error).message})` };
    } finally {
      clearTimeout(deadline);
    }
  }

  private resolver(): Resolver {
    const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: TRIES });
    if (this.servers.length > 0) resolver.setServers(this.servers);
    return resolver;
  }
}

const NO_ANSWER = `no DNS server answered within ${LOOKUP_DEADLINE_MS / 1000} s`;
const FAILURES: Record<string, string> = {
  ETIMEOUT: NO_ANSWER,
  ECANCELLED: NO_ANSWER,
  ESERVFAIL: 'the DNS server reported a failure (SERVFAIL)',
  EREFUSED: 'the DNS server refused the query (REFUSED)',
  ECONNREFUSED: 'the DNS server could not be reached (connection refused)',
};
