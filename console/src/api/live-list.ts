import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';

/**
 * docs/architecture.md#the-console: the Messages, Inbound and webhook deliveries lists show what arrives without a reload,
 * refreshing at least every 10 s while the tab is visible and not at all while it is hidden
 * (TanStack Query pauses an interval while document.visibilityState is `hidden` unless told
 * otherwise). The refreshed page replaces the shown one in place: same key, same rows, so the
 * reader's page, filters, scroll, open rows and focus stay.
 */
export const LIVE_LIST = {
  refetchInterval: 5_000,
  refetchIntervalInBackground: false,
} as const;

/** A live list's page: refreshed as LIVE_LIST says, the page shown kept while the next one loads. */
export function useLiveList<T>(queryKey: QueryKey, queryFn: () => Promise<T>) {
  return useQuery({
    queryKey,
    queryFn,
    // Paging or filtering does not blank the table: the rows shown stay, marked busy, until the next arrive.
    placeholderData: keepPreviousData,
    ...LIVE_LIST,
  });
}
