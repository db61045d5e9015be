/**
 * SPEC §14: the Messages, Inbound and webhook deliveries lists show what arrives without a reload,
 * refreshing at least every 10 s while the tab is visible and not at all while it is hidden
 * (TanStack Query pauses an interval while document.visibilityState is `hidden` unless told
 * otherwise). The refreshed page replaces the shown one in place: same key, same rows, so the
 * reader's page, filters, scroll, open rows and focus stay.
 */
export const LIVE_LIST = {
  refetchInterval: 5_000,
  refetchIntervalInBackground: false,
} as const;
