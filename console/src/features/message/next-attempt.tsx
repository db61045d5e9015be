import { formatTimeUntil } from '../../components/format';
import { Moment } from '../../components/moment';
import { useNow } from '../../components/use-now';

/** When a deferred message's retry is due (the API's nextAttemptAt), and how far off that is. */
export function NextAttempt({ iso }: { iso: string }) {
  // The label counts minutes: renewing it twice a minute keeps it at most half a minute stale.
  const now = useNow(30_000);
  return (
    <>
      Next attempt at <Moment iso={iso} /> ({formatTimeUntil(iso, now)}).
    </>
  );
}
