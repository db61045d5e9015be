const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment as the reader's locale and zone show it; the ISO value goes in a title/dateTime. */
export function formatMoment(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}
