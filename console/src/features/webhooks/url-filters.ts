import type { DeliveryFilters } from '../../api/webhook-deliveries';
import { EVENT_TYPES } from '../../api/webhook-endpoints';
import { oneOf, pageNumber, text, UrlFilters } from '../../components/list-page/url-filters';

/** Every type a delivery can have: the catalogue and the test event. */
export const LOGGED_TYPES = [...EVENT_TYPES, 'endpoint.test'] as const;

/** The deliveries' view in the Webhooks page's URL (`?endpoint=…&type=endpoint.test`), which an endpoint links to. */
export const deliveriesUrl = new UrlFilters<DeliveryFilters>({
  endpointId: text('endpoint'),
  type: oneOf(LOGGED_TYPES),
  page: pageNumber(),
});
