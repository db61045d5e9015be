import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { useSingleMutation } from './use-single-mutation';
import { queryKeys } from './query-keys';

export type WebhookEndpoint = Schemas['WebhookEndpointResponse'];
export type NewWebhookEndpoint = Schemas['CreateWebhookEndpointDto'];
export type WebhookEndpointChange = Schemas['UpdateWebhookEndpointDto'];
export type EventType = NonNullable<NewWebhookEndpoint['events']>[number];

/**
 * The event types an endpoint subscribes to (docs/delivery-and-deliverability.md#webhooks), grouped as the form shows them. The
 * OpenAPI document's enum is a type only; the checks below fail the build when it and this list differ.
 */
export const EVENT_GROUPS = [
  {
    name: 'Messages',
    types: [
      'message.scheduled',
      'message.queued',
      'message.sending',
      'message.deferred',
      'message.sent',
      'message.failed',
      'message.canceled',
      'message.suppressed',
      'message.bounced',
      'message.complained',
    ],
  },
  {
    name: 'Recipients',
    types: ['recipient.failed', 'recipient.bounced', 'recipient.complained', 'recipient.suppressed'],
  },
  { name: 'Domains', types: ['domain.verified', 'domain.pending'] },
  { name: 'Suppressions', types: ['suppression.created', 'suppression.deleted'] },
  { name: 'Inbound', types: ['inbound.received'] },
] as const satisfies readonly { name: string; types: readonly EventType[] }[];
type Listed = (typeof EVENT_GROUPS)[number]['types'][number];
const everyTypeListed: Exclude<EventType, Listed> extends never ? true : never = true;
void everyTypeListed;

export const EVENT_TYPES: readonly EventType[] = EVENT_GROUPS.flatMap((group) => group.types);

/** A disabled endpoint's reason, in words (docs/delivery-and-deliverability.md#webhooks: only "failing" so far). */
export function disabledReasonText(reason: WebhookEndpoint['disabledReason']): string {
  if (reason === 'failing') return 'Disabled automatically: every attempt to it failed for days.';
  return 'Disabled: it is sent nothing until enabled.';
}

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: queryKeys.webhookEndpoints.list,
    queryFn: () => unwrap(api.GET('/user/webhook-endpoints')),
  });
}

export function useCreateEndpoint() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (body: NewWebhookEndpoint) => unwrap(api.POST('/user/webhook-endpoints', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhookEndpoints.list }),
  });
}

export function useUpdateEndpoint(id: string) {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (body: WebhookEndpointChange) =>
      unwrap(api.PATCH('/user/webhook-endpoints/{id}', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhookEndpoints.list }),
  });
}

export function useDeleteEndpoint(id: string) {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: () => unwrap(api.DELETE('/user/webhook-endpoints/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: queryKeys.webhookEndpoints.secret(id) });
      // Its deliveries go with it.
      void client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries.all });
      return client.invalidateQueries({ queryKey: queryKeys.webhookEndpoints.list });
    },
  });
}

/** The signing secret, fetched only once the reader asks to see it; dropped from the cache when no card shows it. */
export function useEndpointSecret(id: string, revealed: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookEndpoints.secret(id),
    queryFn: () => unwrap(api.GET('/user/webhook-endpoints/{id}/secret', { params: { path: { id } } })),
    enabled: revealed,
    gcTime: 0,
    staleTime: Infinity,
  });
}

export function useRotateSecret(id: string) {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: () => unwrap(api.POST('/user/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } } })),
    // A revealed secret shows the new one at once.
    onSuccess: (answer) => client.setQueryData(queryKeys.webhookEndpoints.secret(id), answer),
  });
}

export function useTestEndpoint(id: string) {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: () => unwrap(api.POST('/user/webhook-endpoints/{id}/test', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhookDeliveries.all }),
  });
}
