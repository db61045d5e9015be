import { randomBytes } from 'node:crypto';

/** How long a rotated secret still signs (docs/delivery-and-deliverability.md#webhooks), so that receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * A rotation this soon after the last one answers that one's secret instead of making another:
 * rotations that overlap or repeat at once (concurrent calls, a double click) make one new secret.
 */
export const ROTATION_COALESCE_MS = 10_000;

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (docs/delivery-and-deliverability.md#webhooks asks for 24 at least). */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign a request at `now`: the current one, and the previous one within its overlap. */
export function signingSecrets(
  endpoint: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  now: Date,
): string[] {
  const { secret, previousSecret, previousSecretUntil } = endpoint;
  return previousSecret && previousSecretUntil && now < previousSecretUntil ? [secret, previousSecret] : [secret];
}
