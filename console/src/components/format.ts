// timeStyle 'long' ends with the zone ("10:04:05 AM GMT+1", "… UTC"): a local time says it is one,
// beside the Overview's UTC days (issue 33).
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });

/** A moment as the reader's locale and zone show it, the zone named; the ISO value goes in a title/dateTime. */
export function formatMoment(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/**
 * How far off a moment is, as "in 5 min" or "in 2 h 10 min" (rounded up to the minute: a retry due
 * in 20 s is "in 1 min", not "now"); "due now" once it has come.
 */
export function formatTimeUntil(iso: string, now: number): string {
  const minutes = Math.ceil((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'due now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `in ${hours} h` : `in ${hours} h ${minutes % 60} min`;
}
