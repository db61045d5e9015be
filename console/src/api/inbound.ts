import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import type { InboundFilters } from './list-filters';
import { useLiveList } from './live-list';
import { queryKeys } from './query-keys';

export type { InboundFilters } from './list-filters';

export type InboundItem = Schemas['InboundListItemResponse'];
export type InboundMail = Schemas['InboundMailResponse'];
export type Verdict = Schemas['InboundAuthenticationResponse']['spf'];

export function useInboundList(filters: InboundFilters) {
  return useLiveList(queryKeys.inbound.list(filters), () =>
    unwrap(
      api.GET('/user/inbound', {
        params: {
          query: {
            take: filters.take,
            page: filters.page,
            fromEmail: filters.fromEmail || undefined,
            toEmail: filters.toEmail || undefined,
            startDate: filters.startDate || undefined,
            endDate: filters.endDate || undefined,
          },
        },
      }),
    ),
  );
}

/** One received mail with its text, HTML and every header. */
export function useInboundMail(id: string) {
  return useQuery({
    queryKey: queryKeys.inbound.detail(id),
    queryFn: () => unwrap(api.GET('/user/inbound/{id}', { params: { path: { id } } })),
  });
}
