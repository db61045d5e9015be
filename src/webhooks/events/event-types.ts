import { RECIPIENT_EVENT_STATUSES } from '../../messages';

/**
 * The catalogue of account-wide events (docs/delivery-and-deliverability.md#webhooks). `message.<status>` is one type per message
 * status and `recipient.<status>` one per fate the messages context announces (its
 * RECIPIENT_EVENT_STATUSES, which its lifecycle statements write); the full list is composed
 * where both are known (the webhooks context's EVENT_TYPES).
 */

export const ACCOUNT_EVENT_TYPES = [
  ...RECIPIENT_EVENT_STATUSES.map((status) => `recipient.${status}` as const),
  'domain.verified',
  'domain.pending',
  'suppression.created',
  'suppression.deleted',
  'inbound.received',
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** Sent by POST /user/webhook-endpoints/{id}/test to that endpoint alone; no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'endpoint.test';

export type EventType = `message.${string}` | AccountEventType | typeof TEST_EVENT_TYPE;

/**
 * The `data` of the events written as they happen (docs/delivery-and-deliverability.md#webhooks); message and recipient events are
 * rendered at delivery from the message as it stood at the change, so they carry none here.
 */
export interface EventData {
  'domain.verified': { domain: object };
  'domain.pending': { domain: object };
  'suppression.created': { suppression: object };
  'suppression.deleted': { suppression: object };
  'inbound.received': { inbound: object };
  'endpoint.test': { endpointId: string };
}

/** An event of the account, as the outbox writer takes it. */
export type AccountEvent = {
  [T in keyof EventData]: {
    userId: string;
    type: T;
    data: EventData[T];
    /** Only to this endpoint, whatever it subscribes to (the test event). */
    endpointId?: string;
    /** Chosen by the caller when it answers with it; otherwise a new UUID. */
    id?: string;
  };
}[keyof EventData];
