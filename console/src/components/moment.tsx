import { formatMoment } from './format';

export function Moment({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{formatMoment(iso)}</time>;
}
