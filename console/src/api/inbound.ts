import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { LIVE_LIST } from './live-list';
import { queryKeys } from './query-keys';

export type InboundItem = Schemas['InboundListItemResponse'];
export type InboundMail = Schemas['InboundMailResponse'];
export type Verdict = Schemas['InboundAuthenticationResponse']['spf'];

/** The inbound list's filters as the URL holds them: every one GET /user/inbound takes (SPEC §13), and the page. */
export interface InboundFilters {
  fromEmail: string;
  toEmail: string;
  startDate: string;
  endDate: string;
  take: number;
  page: number;
}

export function useInboundList(filters: InboundFilters) {
  return useQuery({
    queryKey: queryKeys.inbound.list(filters),
    queryFn: () =>
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
    // The page shown stays while the next one loads, so paging does not blank the table.
    placeholderData: keepPreviousData,
    ...LIVE_LIST,
  });
}

/** One received mail with its text, HTML and every header. */
export function useInboundMail(id: string) {
  return useQuery({
    queryKey: queryKeys.inbound.detail(id),
    queryFn: () => unwrap(api.GET('/user/inbound/{id}', { params: { path: { id } } })),
  });
}
