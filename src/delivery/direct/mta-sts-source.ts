/** A domain's MTA-STS policy (RFC 8461) as direct delivery reads it: its mode and the MX patterns it allows. */
export interface MtaStsPolicy {
  mode: 'enforce' | 'testing' | 'none';
  mx: string[];
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
