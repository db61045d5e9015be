/** The one throttler: RATE_LIMIT_PER_MINUTE per user in fixed windows of a minute. */
export const RATE_LIMIT_THROTTLER = 'default';
export const RATE_LIMIT_WINDOW_MS = 60_000;
