/** One relay of SMTP_URL (docs/delivery-and-deliverability.md#relays-and-failover). */
export interface SmtpRelay {
  /** The URL as configured, credentials included: for the transport only, never shown. */
  url: string;
  /** `host:port`, what logs and the status history name it by (never its credentials). */
  name: string;
}

/** The most relays SMTP_URL may name: each holds a pool of its own, and a longer list is a mistake. */
export const MAX_SMTP_RELAYS = 10;

/** One relay's URL: as a single SMTP_URL has always been accepted, but a comma never ends its host. */
export const SMTP_RELAY_URL = /^smtps?:\/\/([^\s/]*@)?(\[[\da-f:.]+\]|[^\s/@,:[\]]+)(:\d{1,5})?\/?(\?\S*)?$/i;

/**
 * SMTP_URL as its relays' URLs. A comma followed by a scheme starts the next relay, so that a
 * single URL whose password holds a comma reads as it always has.
 */
export function splitSmtpUrl(value: string): string[] {
  return value.trim().split(/\s*,\s*(?=smtps?:\/\/)/i);
}

/** Each relay's URL with its name; the port is nodemailer's default when the URL gives none. */
export function smtpRelays(urls: readonly string[]): SmtpRelay[] {
  return urls.map((url) => {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol.toLowerCase() === 'smtps:' ? '465' : '587');
    return { url, name: `${parsed.hostname}:${port}` };
  });
}
