import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import type { DeliveryFilters } from './list-filters';
import { LIVE_LIST, useLiveList } from './live-list';
import { queryKeys } from './query-keys';
import { useSingleMutation } from './use-single-mutation';

export type { DeliveryFilters, LoggedEventType } from './list-filters';
export type WebhookDelivery = Schemas['WebhookDeliveryResponse'];
export type WebhookDeliveryDetails = Schemas['WebhookDeliveryDetailsResponse'];

export function useMessageWebhookDeliveries(messageId: string, page: number) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries.forMessage(messageId, page),
    queryFn: () => unwrap(api.GET('/user/webhook-deliveries', { params: { query: { messageId, page, take: 20 } } })),
    // A pending delivery turns delivered or failed while the Message page is open.
    ...LIVE_LIST,
  });
}

export function useWebhookDeliveries(filters: DeliveryFilters) {
  return useLiveList(queryKeys.webhookDeliveries.list(filters), () =>
    unwrap(
      api.GET('/user/webhook-deliveries', {
        params: {
          query: {
            endpointId: filters.endpointId || undefined,
            type: filters.type || undefined,
            page: filters.page,
            take: 20,
          },
        },
      }),
    ),
  );
}

/** One delivery with the body it posts and the first bytes of each answer; fetched once its details are opened. */
export function useWebhookDelivery(id: string) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries.detail(id),
    queryFn: () => unwrap(api.GET('/user/webhook-deliveries/{id}', { params: { path: { id } } })),
  });
}

export function useReplayDelivery() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (id: string) => unwrap(api.POST('/user/webhook-deliveries/{id}/replay', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries.all }),
  });
}
