import { ValidationOptions, registerDecorator, isEmail } from 'class-validator';

/**
 * Small validation rules that class-validator lacks, each one a decorator. Messages are written
 * for the `message` of a problem's `errors[]`, where the field is already named.
 */
function rule(name: string, test: (value: unknown, object: object) => boolean, message: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value, args) => test(value, args!.object) },
    });
}

// RFC 5321 caps a forward path at 256 octets, so an address at 254 characters.
const MAX_EMAIL_LENGTH = 254;

export function isEmailAddress(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_EMAIL_LENGTH &&
    isEmail(value, { allow_display_name: false, require_tld: true, allow_ip_domain: false })
  );
}

export const IsEmailAddress = (options?: ValidationOptions) =>
  rule('isEmailAddress', isEmailAddress, 'must be an email address (name@example.com)', options);

/** CR or LF in anything that becomes a mail header would let a caller write headers of its own. */
export const HasNoLineBreaks = (options?: ValidationOptions) =>
  rule('hasNoLineBreaks', (v) => typeof v === 'string' && !/[\r\n]/.test(v), 'must not contain line breaks', options);

export const MaxUtf8Bytes = (max: number, options?: ValidationOptions) =>
  rule('maxUtf8Bytes', (v) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') <= max, `must be at most ${max} bytes`, options);

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const IsStandardBase64 = (options?: ValidationOptions) =>
  rule('isStandardBase64', (v) => typeof v === 'string' && STANDARD_BASE64.test(v), 'must be standard base64 (RFC 4648 §4, padded)', options);

/** A file name that cannot name a path or break out of a MIME header. */
export function isSafeFileName(value: unknown): value is string {
  return typeof value === 'string' && !/[/\\\r\n\0]/.test(value);
}

export const IsSafeFileName = (options?: ValidationOptions) =>
  rule('isSafeFileName', isSafeFileName, 'must not contain /, \\, CR, LF or NUL', options);

export interface StringRecordLimits {
  maxKeys: number;
  maxKeyLength: number;
  maxValueLength: number;
}

export function isStringRecord(value: unknown, limits: StringRecordLimits): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= limits.maxKeys &&
    entries.every(
      ([key, v]) => key.length >= 1 && key.length <= limits.maxKeyLength && typeof v === 'string' && v.length <= limits.maxValueLength,
    )
  );
}

export const IsStringRecord = (limits: StringRecordLimits, options?: ValidationOptions) =>
  rule(
    'isStringRecord',
    (v) => isStringRecord(v, limits),
    `must be an object of at most ${limits.maxKeys} keys of 1-${limits.maxKeyLength} characters, each value a string of at most ${limits.maxValueLength} characters`,
    options,
  );

/** For ranges: this value must not come before the value of another property (when both are valid). */
export const IsNotBefore = (property: string, options?: ValidationOptions) =>
  rule(
    'isNotBefore',
    (v, object) => {
      const other = (object as Record<string, unknown>)[property];
      return !(v instanceof Date && other instanceof Date) || v.getTime() >= other.getTime();
    },
    `must not be before ${property}`,
    options,
  );
