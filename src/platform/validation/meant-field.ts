import { getMetadataStorage } from 'class-validator';

/**
 * Other email APIs' names for our fields, squashed (lower case, no `_` or `-`): people arriving
 * from Resend (`from`, `reply_to`, `scheduled_at`, `tags`, attachments' `filename`, `content_type`),
 * Postmark (`From`, `HtmlBody`, `TextBody`, `ReplyTo`, `Metadata`, `Tag`, attachments' `Name`,
 * `ContentType`, `ContentID`), SendGrid (`send_at`, `custom_args`, attachments' `type`) or nodemailer
 * (attachments' `cid`) write them
 * by habit. Names that are ours but for case and separators (`reply_to`, `Cc`) need no entry.
 */
const OTHER_SERVICES = new Map<string, string>([
  ['from', 'sender'],
  ['fromemail', 'sender'],
  ['htmlbody', 'html'],
  ['textbody', 'text'],
  ['metadata', 'customPayload'],
  ['tags', 'customPayload'],
  ['customargs', 'customPayload'],
  ['tag', 'bulkSendingId'],
  ['sendat', 'scheduledAt'],
  ['name', 'fileName'],
  ['type', 'contentType'],
  ['cid', 'contentId'],
]);

const squash = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/**
 * The field of `dto` that someone writing `unknown` most likely meant: one of its own names
 * written in another case or with separators, or another service's name for one of them; a
 * suggestion is made only when `dto` has that field.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator and class-transformer key their metadata by the class as a Function, and hand it back as one
export function meantField(unknown: string, dto: Function | undefined): string | undefined {
  if (!dto) return undefined;
  const known = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
  const squashed = squash(unknown);
  const other = OTHER_SERVICES.get(squashed);
  return known.find((name) => squash(name) === squashed) ?? (other && known.includes(other) ? other : undefined);
}
