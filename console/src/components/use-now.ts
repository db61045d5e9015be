import { useEffect, useState } from 'react';

/** The time now, renewed every `everyMs`, for labels such as "in 5 min" that age while shown. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
