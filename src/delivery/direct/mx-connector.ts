import type { DirectDeliveryConfig } from '../../platform/config/direct-delivery';
import { trustOf } from './direct-trust';
import { MxConnection, MxConnectionTarget, OpenFailure, SmtpError } from './mx-connection';
import type { MxRouting } from './mx-routing';
import type { TlsBrokenHosts } from './tls-broken-hosts';

/** What opening a session with a domain's MX hosts came to: one, or why none (a temporary failure). */
export type Opened = { connection: MxConnection } | { failure: string };

/** What the connector tells about the hosts it tried: a 4xx while opening (to report a site's 4xx) and a host found TLS-broken. */
export interface ConnectorEvents {
  /** A 4xx to the greeting, EHLO/HELO or STARTTLS: `421 too many connections` slows a site wherever it comes. */
  refusedOnOpening(reply: string): void;
  tlsBroken(host: string, reason: string): void;
}

/**
 * Opens an SMTP session with the first of a domain's MX hosts that takes one
 * (docs/delivery-and-deliverability.md#direct-delivery): host after host on a refused connection,
 * a timeout or a refused greeting or EHLO; `EHLO DELIVERY_HELO_NAME` to DIRECT_MX_PORT, bound to the next
 * of DELIVERY_SOURCE_ADDRESSES; STARTTLS whenever offered. Under an MTA-STS `enforce` policy only
 * over TLS with a certificate valid for the host, never in clear; otherwise a host whose TLS
 * handshake fails is spoken to in clear at once, and for a day (TlsBrokenHosts).
 */
export class MxConnector {
  private nextSource = 0;

  constructor(
    private readonly config: DirectDeliveryConfig,
    private readonly routing: MxRouting,
    private readonly tlsBroken: TlsBrokenHosts,
  ) {}

  /** Tries the hosts in order until one takes a session, or `deadline` (performance.now()) passes. */
  async open(
    hosts: readonly string[],
    enforceTls: boolean,
    deadline: number,
    events: ConnectorEvents,
  ): Promise<Opened> {
    const failures: string[] = [];
    for (const host of hosts) {
      if (performance.now() >= deadline) {
        failures.push('no time left for the other hosts');
        break;
      }
      const addresses = await this.routing.addressesOf(host);
      if (addresses.length === 0) failures.push(`${host}: no address`);
      for (const address of addresses) {
        // Each address may take its connection and greeting timeouts: none is begun past the deadline.
        if (performance.now() >= deadline) {
          failures.push(`${host}: no time left for its other addresses`);
          break;
        }
        const target = this.targetOf(host, address, enforceTls);
        try {
          return { connection: await MxConnection.open(target) };
        } catch (thrown) {
          const { error, tls } = thrown as OpenFailure;
          const detail = error.response ?? [error.code, error.message].filter(Boolean).join(': ');
          if (error.response?.startsWith('4')) events.refusedOnOpening(error.response);
          if (tls && !enforceTls) {
            // Opportunistic TLS that fails is no reason to keep mail back: the same host, in clear, now.
            this.tlsBroken.failed(host);
            events.tlsBroken(host, detail);
            try {
              return { connection: await MxConnection.open({ ...target, tls: 'never' }) };
            } catch (again) {
              failures.push(`${host}: ${describe((again as OpenFailure).error)}`);
              continue;
            }
          }
          failures.push(`${host}: ${tls ? 'TLS failed: ' : ''}${detail}`);
        }
      }
    }
    return { failure: failures.join('; ') };
  }

  private targetOf(host: string, address: string, enforceTls: boolean): MxConnectionTarget {
    const sources = this.config.sourceAddresses;
    // Round robin over the pool; a source of the other family than the host's address cannot be bound.
    const family = address.includes(':') ? ':' : '.';
    const usable = sources.filter((source) => source.includes(family));
    const localAddress = usable.length > 0 ? usable[this.nextSource++ % usable.length] : undefined;
    return {
      host,
      address,
      port: this.config.mxPort,
      heloName: this.config.heloName,
      localAddress,
      tls: enforceTls ? 'required' : this.tlsBroken.isBroken(host) ? 'never' : 'offered',
      trust: trustOf(this.config).context,
    };
  }
}

function describe(error: SmtpError): string {
  return error.response ?? [error.code, error.message].filter(Boolean).join(': ');
}
