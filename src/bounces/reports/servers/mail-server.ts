import { ReportMail } from '../report-mail';

/**
 * What Mailroom knows about one family of mail servers: how to tell that a report was written by
 * it (or quotes its reply), and the words by which it, and only it, says that the address itself
 * is bad without a status code that says so. Such words suppress only when the server is
 * identified: the same phrase from an unknown server may mean something else (a content filter
 * saying "unknown user" after DATA, for one).
 */
export interface MailServer {
  /** The family's name, for reading the rules. */
  family: string;
  /** Whether the report was written by this server, or quotes a reply of this server. */
  identifies(mail: ReportMail): boolean;
  /** The server's own phrases for "this address (or its domain) does not exist". */
  addressFailure: RegExp;
}

/** The human-readable text of a report, up to where a quoted copy may begin: where servers sign. */
export const headOf = (mail: ReportMail, length = 4000): string => mail.text.slice(0, length);
