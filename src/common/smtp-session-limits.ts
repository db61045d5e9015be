/**
 * What one client may take of a process through an SMTP server that faces the internet: the
 * inbound listener (SPEC §9) and the submission server (SPEC §10) alike. Tests may shorten a
 * limit on the instance the app injects before the sessions they open.
 */
export class SmtpSessionLimits {
  /** Connections at once per process; past it, 421. */
  clients = 100;
  /** Whole session, however busy: a client that keeps talking (NOOP, RSET, a byte at a time…) is still cut off with 421. */
  sessionMs = 5 * 60_000;
}
