import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type paths,
  cancelableMessageStatusValues,
  messageStatusValues,
  unfinishedMessageStatusValues,
} from '../../generated/openapi';
import { api, unwrap, type Schemas } from './client';
import type { MessageFilters, MessageStatus } from './list-filters';
import { useLiveList } from './live-list';
import { queryKeys } from './query-keys';
import { useSingleMutation } from './use-single-mutation';

export type { MessageFilters, MessageStatus } from './list-filters';
export type Message = Schemas['MessageResponse'];
export type RecipientFate = Schemas['RecipientFateResponse'];
export type HistoryEntry = Schemas['StatusHistoryEntry'];
type ListQuery = NonNullable<paths['/user/messages']['get']['parameters']['query']>;

/** Every status of docs/delivery-and-deliverability.md#statuses, in the order a message moves through them (the document's MessageStatus). */
export const MESSAGE_STATUSES: readonly MessageStatus[] = messageStatusValues;
// The build fails here when a message can be in a status the document's list lacks.
const everyStatusListed: Exclude<MessageStatus, (typeof MESSAGE_STATUSES)[number]> extends never ? true : never = true;
void everyStatusListed;

/** The statuses from which POST /user/messages/{id}/cancel succeeds (docs/delivery-and-deliverability.md#statuses), as the server derives them. */
export const CANCELABLE: readonly MessageStatus[] = cancelableMessageStatusValues;

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
  return useLiveList(queryKeys.messages.list(filters), () =>
    unwrap(api.GET('/user/messages', { params: { query: toQuery(filters) } })),
  );
}

/** Statuses a message leaves on its own (a worker, the clock): its page keeps asking while it has one. */
const MOVING = new Set<MessageStatus>(unfinishedMessageStatusValues);
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
