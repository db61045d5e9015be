import { MAX_HEADER_BYTES } from '../platform/mail/header-fields';

/**
 * What one received mail may hold (docs/inbound.md: port 25 faces the internet), beside its size
 * (INBOUND_MAX_BYTES). Where SPEC is silent the limits sit far above real mail and low enough
 * that reading a mail stays linear and small: Postfix nests MIME up to 100 deep and Gmail takes
 * mail of a few hundred parts; real mail stays within a dozen levels and a few dozen parts.
 * Tests may lower a limit on the instance the app injects.
 */
export class InboundMailLimits {
  /** Envelope recipients of one transaction; past it, 452 (RFC 5321 §4.5.3.1.10 asks for at least 100 to be taken, a receiver may take fewer). */
  recipients = 50;
  /** Mails over smallMailBytes read and stored at once per process: the others wait on disk, so memory stays bounded. */
  mailsAtOnce = 2;
  /** Mails up to this size (most mail) wait in a queue of their own, read smallMailsAtOnce at a time. */
  smallMailBytes = 1024 * 1024;
  smallMailsAtOnce = 8;
  /** The header block of the mail and of each part (mailparser's guard, shared with the bounce reader). */
  headerBytes = MAX_HEADER_BYTES;
  /** MIME parts, the mail itself and every multipart included (mailsplit's maxChildNodes). */
  mimeParts = 1000;
  /** Levels of nested parts (the mail itself is level 1; an attached message is one part, read as an attachment). */
  mimeDepth = 32;
  /** Attachments (parts mailparser does not read as the text or HTML body). */
  attachments = 250;
  /** Bytes of one line, its line end excluded: RFC 5322 says 998, real senders write far longer lines of HTML or base64. */
  lineBytes = 1024 * 1024;
  /**
   * Lines of one mail. The MIME splitter (mailsplit, run by the structure check and again inside
   * mailparser) costs some microseconds a line whatever its length, so 10 MiB of one-character
   * lines of base64 or quoted-printable held a large-mail slot 15 s (issue 33). Base64 and
   * quoted-printable write 76-character lines (a 10 MiB mail: about 138,000 of them); this leaves
   * room for text of 35-byte lines on average at INBOUND_MAX_BYTES (and for a megabyte of folded
   * header lines, refused for its header block), and bounds the splitting.
   */
  lines = 300_000;
}
