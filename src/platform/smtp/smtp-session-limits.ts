/**
 * What one client may take of a process through an SMTP server that faces the internet: the
 * inbound listener (docs/delivery-and-deliverability.md) and the submission server (docs/api.md#smtp-submission) alike. Tests may shorten a
 * limit on the instance the app injects before the sessions they open.
 */
export class SmtpSessionLimits {
  /** Connections at once per process; past it, 421. */
  clients = 100;
  /**
   * Connections at once from one client address (an IPv6 client's /64); past it, 421, so that one
   * address cannot hold every connection (`clients`) and shut everyone else out. Twenty: what a
   * Postfix sender opens to one destination by default (default_destination_concurrency_limit), so
   * a default MTA never meets the cap, and it takes five addresses to fill the hundred.
   */
  clientsPerAddress = 20;
  /** Whole session, however busy: a client that keeps talking (NOOP, RSET, a byte at a time…) is still cut off with 421. */
  sessionMs = 5 * 60_000;
}
