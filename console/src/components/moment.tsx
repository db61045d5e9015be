import { formatMoment } from './format';

export function Moment({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    // The same moment in UTC on hover, as the API and the Overview's days give it.
    <time dateTime={iso} title={`${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`}>
      {formatMoment(iso)}
    </time>
  );
}
