import { SmtpSessionLimits } from '../../platform/smtp/smtp-session-limits';

/**
 * What one submission client may take of an API process (docs/api.md#smtp-submission), beside the connections and
 * session time every SMTP server of ours limits. Tests may shorten a limit on the injected instance.
 */
export class SubmissionLimits extends SmtpSessionLimits {
  /** Failed AUTH attempts in one session: the last is answered 421 and the session closed. */
  failedLoginsPerSession = 3;
  /** Failed AUTH attempts from one client address within failedLoginWindowMs: past them, 421 at connect until the window ends. */
  failedLoginsPerAddress = 20;
  failedLoginWindowMs = 60_000;
  /**
   * Messages read into memory and taken in at once per process; the others wait on disk (
   * docs/api.md#smtp-submission: 20 sessions of 19 MiB keep an API process under 300 MB of RSS).
   */
  messagesAtOnce = 2;
}
