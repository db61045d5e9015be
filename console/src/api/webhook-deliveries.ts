import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';

export type WebhookDelivery = Schemas['WebhookDeliveryResponse'];

export function useMessageWebhookDeliveries(messageId: string, page: number) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries.forMessage(messageId, page),
    queryFn: () => unwrap(api.GET('/user/webhook-deliveries', { params: { query: { messageId, page, take: 20 } } })),
  });
}

export function useReplayDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/user/webhook-deliveries/{id}/replay', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries.all }),
  });
}
