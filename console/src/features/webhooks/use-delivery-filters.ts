import { useSearchParams } from 'react-router';
import type { DeliveryFilters } from '../../api/webhook-deliveries';
import { EVENT_TYPES } from '../../api/webhook-endpoints';

/** Every type a delivery can have: the catalogue and the test event. */
export const LOGGED_TYPES = [...EVENT_TYPES, 'endpoint.test'] as const;

/** The query string that shows these deliveries, so that a test's answer can link to its own. */
export function deliveriesSearch(filters: Partial<DeliveryFilters>): string {
  const next = new URLSearchParams();
  if (filters.endpointId) next.set('endpoint', filters.endpointId);
  if (filters.type) next.set('type', filters.type);
  if (filters.page && filters.page > 1) next.set('page', String(filters.page));
  return `?${next.toString()}`;
}

/** The deliveries' filters in the URL (shareable, kept on reload); a bad value reads as none. */
export function useDeliveryFilters(): [DeliveryFilters, (next: DeliveryFilters) => void] {
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const filters: DeliveryFilters = {
    endpointId: params.get('endpoint') ?? '',
    type: (LOGGED_TYPES as readonly string[]).includes(type) ? (type as DeliveryFilters['type']) : '',
    page: Math.max(1, Number(params.get('page')) || 1),
  };
  return [filters, (next) => setParams(new URLSearchParams(deliveriesSearch(next)))];
}
