import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { useSingleMutation } from './use-single-mutation';
import { LIVE_LIST } from './live-list';
import { queryKeys } from './query-keys';

export type Message = Schemas['MessageResponse'];
export type MessageStatus = Message['status'];
export type RecipientFate = Schemas['RecipientFateResponse'];
export type HistoryEntry = Schemas['StatusHistoryEntry'];
type ListQuery = NonNullable<import('../../generated/openapi').paths['/user/messages']['get']['parameters']['query']>;

/** Every status of SPEC §5, in the order a message moves through them. */
export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'deferred',
  'sent',
  'failed',
  'canceled',
  'suppressed',
  'bounced',
  'complained',
] as const satisfies readonly MessageStatus[];
// The build fails here when the API gains a status this list lacks.
const everyStatusListed: Exclude<MessageStatus, (typeof MESSAGE_STATUSES)[number]> extends never ? true : never = true;
void everyStatusListed;

/** The statuses from which POST /user/messages/{id}/cancel succeeds (SPEC §5). */
export const CANCELABLE: readonly MessageStatus[] = ['scheduled', 'queued', 'deferred'];

/** The list's filters as the URL holds them: every one of SPEC §6's, and the page. */
export interface MessageFilters {
  statuses: MessageStatus[];
  fromEmail: string;
  toEmail: string;
  startDate: string;
  endDate: string;
  bulkSending: string;
  /** Free text in the subject or a recipient. */
  q: string;
  take: number;
  page: number;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;

function toQuery(filters: MessageFilters): ListQuery {
  return {
    take: filters.take,
    page: filters.page,
    statuses: filters.statuses.length ? filters.statuses.join(',') : undefined,
    fromEmail: filters.fromEmail || undefined,
    toEmail: filters.toEmail || undefined,
    startDate: filters.startDate || undefined,
    endDate: filters.endDate || undefined,
    bulkSending: filters.bulkSending || undefined,
    q: filters.q || undefined,
  };
}

export function useMessages(filters: MessageFilters) {
  return useQuery({
    queryKey: queryKeys.messages.list(filters),
    queryFn: () => unwrap(api.GET('/user/messages', { params: { query: toQuery(filters) } })),
    // The page shown stays while the next one loads, so paging does not blank the table.
    placeholderData: keepPreviousData,
    ...LIVE_LIST,
  });
}

/** Statuses a message leaves on its own (a worker, the clock): its page keeps asking while it has one. */
const MOVING = new Set(['scheduled', 'queued', 'sending', 'deferred']);
const REFRESH_MS = 5_000;

export function useMessage(id: string) {
  return useQuery({
    queryKey: queryKeys.messages.detail(id),
    queryFn: () => unwrap(api.GET('/user/messages/{id}', { params: { path: { id } } })),
    // A deferred message's page would otherwise say "due now" long after the retry delivered it.
    refetchInterval: (query) => (query.state.data && MOVING.has(query.state.data.status) ? REFRESH_MS : false),
  });
}

export function useCancelMessage(id: string) {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: () => unwrap(api.POST('/user/messages/{id}/cancel', { params: { path: { id } } })),
    onSuccess: (message) => {
      client.setQueryData(queryKeys.messages.detail(id), message);
      // Its row in any list shows the new status.
      return client.invalidateQueries({ queryKey: [...queryKeys.messages.all, 'list'] });
    },
  });
}
