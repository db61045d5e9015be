import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';

/** SMTP_URL=direct's settings (docs/configuration.md#direct-delivery). */
export interface DirectDeliveryConfig {
  /** The name said in EHLO. */
  heloName: string;
  /** Local addresses connections bind to, round robin; empty: the system's choice. */
  sourceAddresses: string[];
  /** The port of every MX host (25; tests point it at loopback servers). */
  mxPort: number;
  /** MTA_STS_CA_FILE as given, and its PEM contents: trusted beside the system's CAs. */
  mtaStsCaFile: string | undefined;
  mtaStsCa: Buffer | undefined;
  messagesPerConnection: number;
}

/** The longest IP pool: more is a mistake, not a pool. */
export const MAX_SOURCE_ADDRESSES = 64;

export class DirectConfigError extends Error {}

/** DELIVERY_SOURCE_ADDRESSES: IPv4 or IPv6 addresses, comma-separated, at most MAX_SOURCE_ADDRESSES. */
export function parseSourceAddresses(value: string | undefined): string[] {
  if (value === undefined) return [];
  const addresses = value.split(',').map((entry) => entry.trim());
  if (addresses.length > MAX_SOURCE_ADDRESSES)
    throw new DirectConfigError(`DELIVERY_SOURCE_ADDRESSES: at most ${MAX_SOURCE_ADDRESSES} addresses`);
  for (const address of addresses)
    if (isIP(address) === 0)
      throw new DirectConfigError(
        `DELIVERY_SOURCE_ADDRESSES: "${address.slice(0, 64)}" is not an IP address (comma-separated, like 192.0.2.10,2001:db8::10)`,
      );
  return addresses;
}

/**
 * MTA_STS_CA_FILE's contents: a readable file of PEM certificates that Node loads as CAs.
 */
export function readCaFile(path: string | undefined): Buffer | undefined {
  if (path === undefined) return undefined;
  let contents: Buffer;
  try {
    contents = readFileSync(path);
  } catch (error) {
    throw new DirectConfigError(`MTA_STS_CA_FILE: cannot read ${path} (${(error as Error).message})`);
  }
  // Node's own PEM readers: the first certificate must parse, and the bundle must load whole as CAs.
  try {
    new X509Certificate(contents);
    createSecureContext({ ca: contents });
  } catch (error) {
    throw new DirectConfigError(
      `MTA_STS_CA_FILE: ${path} is not a PEM certificate bundle (${(error as Error).message})`,
    );
  }
  return contents;
}
