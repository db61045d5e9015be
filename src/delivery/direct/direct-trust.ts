import { createSecureContext, rootCertificates, SecureContext } from 'node:tls';
import type { DirectDeliveryConfig } from '../../platform/config/direct-delivery';

/**
 * The CAs direct delivery trusts (docs/delivery-and-deliverability.md#direct-delivery): the
 * system's plus MTA_STS_CA_FILE's bundle, for MX hosts' certificates and MTA-STS policy hosts'
 * alike. Its TLS context is built once: one built per STARTTLS (what `tls: { ca }` makes Node do)
 * costs some 44 ms of CPU each.
 */
export class DirectTrust {
  /** The system's CAs, then the extra bundle whole as one entry (as `ca` options take it). */
  readonly certificates: readonly (string | Buffer)[];
  readonly context: SecureContext;

  /** `extraCa`: MTA_STS_CA_FILE's PEM, read and checked by the configuration. */
  constructor(extraCa?: string | Buffer) {
    this.certificates = [...rootCertificates, ...(extraCa ? [extraCa] : [])];
    this.context = createSecureContext({ ca: [...this.certificates] });
  }
}

const trusts = new WeakMap<DirectDeliveryConfig, DirectTrust>();

/** The trust of a configuration, built at its first use and shared by every part given that configuration. */
export function trustOf(config: DirectDeliveryConfig): DirectTrust {
  let trust = trusts.get(config);
  if (!trust) trusts.set(config, (trust = new DirectTrust(config.mtaStsCa)));
  return trust;
}
