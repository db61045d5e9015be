import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';

export type Stats = Schemas['StatsResponse'];
export type StatsDay = Stats['days'][number];

/** docs/api.md#reading-back: messages per UTC day of acceptance by their status now, the API's default 30 days. */
export function useStats() {
  return useQuery({
    queryKey: queryKeys.stats.last30Days,
    queryFn: () => unwrap(api.GET('/user/stats')),
  });
}
