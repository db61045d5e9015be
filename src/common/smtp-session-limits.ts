/**
 * What one client may take of a process through an SMTP server that faces the internet: the
 * inbound listener (SPEC §9) and the submission server (SPEC §10) alike. Tests may shorten a
 * limit on the instance the app injects before the sessions they open.
 */
export class SmtpSessionLimits {
  /** Connections at once per process; past it, 421. */
  clients = 100;
  /**
   * Connections at once from one client address (an IPv6 client's /64); past it, 421, so that one
   * address cannot hold every connection (`clients`) and shut everyone else out. Ten: twice
   * nodemailer's pool (5 connections), above what MTAs open to one host by default (Exim 4; a
   * Postfix sender told 421 queues the rest and comes back), and ten addresses to fill `clients`.
   */
  clientsPerAddress = 10;
  /** Whole session, however busy: a client that keeps talking (NOOP, RSET, a byte at a time…) is still cut off with 421. */
  sessionMs = 5 * 60_000;
}
