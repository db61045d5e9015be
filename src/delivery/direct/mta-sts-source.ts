/**
 * A domain's MTA-STS policy (RFC 8461) as direct delivery applies it (docs/delivery-and-deliverability.md#direct-delivery):
 * `none` with `error` set when the domain announces a policy (its `_mta-sts` TXT record) that
 * could not be fetched or read, with no unexpired policy cached: RFC 8461 §3.3 has delivery go on
 * then as though the domain had no policy.
 */
export interface MtaStsPolicy {
  mode: 'enforce' | 'testing' | 'none';
  /** The MX patterns, lower-case: host names or `*.` and a domain (RFC 8461 §4.1). */
  mx: string[];
  /** Seconds the policy may be cached (its max_age). */
  maxAge?: number;
  /** The id of the TXT record it was fetched under. */
  id?: string;
  error?: string;
}

/**
 * Where direct delivery gets MTA-STS policies from (docs/delivery-and-deliverability.md#direct-delivery):
 * the shape of MtaStsPolicies (mta-sts-policies.ts), which fetches and caches them.
 */
export abstract class MtaStsSource {
  /** The domain's policy; mode `none` when it has none. */
  abstract policyFor(domain: string): Promise<MtaStsPolicy>;
  /** Whether an MX host matches one of the policy's `mx` patterns (RFC 8461 §4.1). */
  abstract matches(policy: MtaStsPolicy, mxHost: string): boolean;
}

/** No MTA-STS: every domain has no policy (tests of the transport alone; the app wires MtaStsPolicies). */
export class NoMtaSts extends MtaStsSource {
  policyFor(): Promise<MtaStsPolicy> {
    return Promise.resolve({ mode: 'none', mx: [] });
  }

  matches(): boolean {
    return false;
  }
}
