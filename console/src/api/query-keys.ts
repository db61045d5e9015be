import type { AuditFilters, DeliveryFilters, InboundFilters, MessageFilters } from './list-filters';

/** Every query key of the console, one factory per resource (TanStack Query's effective keys). */
export const queryKeys = {
  caller: (token: string) => ['caller', token] as const,
  session: ['session'] as const,
  signInMethods: ['sign-in-methods'] as const,
  members: {
    all: ['members'] as const,
  },
  auditLog: {
    all: ['audit-log'] as const,
    list: (filters: AuditFilters) => ['audit-log', 'list', filters] as const,
  },
  messages: {
    all: ['messages'] as const,
    list: (filters: MessageFilters) => ['messages', 'list', filters] as const,
    detail: (id: string) => ['messages', 'detail', id] as const,
    content: (id: string) => ['messages', 'content', id] as const,
  },
  stats: {
    last30Days: ['stats', 'last-30-days'] as const,
  },
  webhookDeliveries: {
    all: ['webhook-deliveries'] as const,
    forMessage: (messageId: string, page: number) => ['webhook-deliveries', 'message', messageId, page] as const,
    list: (filters: DeliveryFilters) => ['webhook-deliveries', 'list', filters] as const,
    detail: (id: string) => ['webhook-deliveries', 'detail', id] as const,
  },
  webhookEndpoints: {
    all: ['webhook-endpoints'] as const,
    list: ['webhook-endpoints', 'list'] as const,
    secret: (id: string) => ['webhook-endpoints', 'secret', id] as const,
  },
  domains: {
    all: ['domains'] as const,
  },
  inbound: {
    all: ['inbound'] as const,
    list: (filters: InboundFilters) => ['inbound', 'list', filters] as const,
    detail: (id: string) => ['inbound', 'detail', id] as const,
  },
  apiKeys: {
    all: ['api-keys'] as const,
  },
  suppressions: {
    all: ['suppressions'] as const,
    list: (email: string, page: number) => ['suppressions', 'list', email, page] as const,
  },
};
