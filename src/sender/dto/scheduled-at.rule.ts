import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { parseDateTime } from '../../platform/validation/query-values';

/** How far ahead a send may be scheduled (docs/api.md#sending), as Resend and Postmark's peers allow. */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 86_400_000;

/** Why `value` is no scheduledAt at the moment `now`, or undefined when it is one. A past moment is one: it means now. */
export function scheduledAtFault(value: unknown, now: number): string | undefined {
  const moment = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (!moment) return 'must be an ISO 8601 date-time with an offset or Z (2026-03-01T09:00:00Z)';
  if (moment.getTime() > now + MAX_SCHEDULE_AHEAD_MS)
    return `must be at most 30 days ahead (${new Date(now + MAX_SCHEDULE_AHEAD_MS).toISOString()})`;
  return undefined;
}

@ValidatorConstraint({ name: 'scheduledAt' })
export class ScheduledAtRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return scheduledAtFault(value, Date.now()) === undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return scheduledAtFault(args.value, Date.now()) ?? 'must be a moment at most 30 days ahead';
  }
}
