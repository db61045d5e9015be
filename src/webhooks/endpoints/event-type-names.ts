import { ACCOUNT_EVENT_TYPES } from '../events/event-types';
import { MESSAGE_STATUSES } from '../../messages';

/** Every event type an endpoint can subscribe to (docs/delivery-and-deliverability.md#webhooks): the catalogue, with one `message.<status>` per status. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  ...MESSAGE_STATUSES.map((status) => `message.${status}` as const),
  ...ACCOUNT_EVENT_TYPES,
];
