import type { paths } from '../../generated/openapi';
import type { Schemas } from './client';

/**
 * What each live list is asked for, as its page's URL holds it ('' for a filter not applied). Here
 * rather than beside each list's hook, so that the query keys and the hooks both import them
 * without importing each other.
 */
export type MessageStatus = Schemas['MessageResponse']['status'];
type DeliveriesQuery = NonNullable<paths['/user/webhook-deliveries']['get']['parameters']['query']>;
export type LoggedEventType = NonNullable<DeliveriesQuery['type']>;

/** The Messages list's filters: every one of docs/api.md#routes's, and the page. */
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

/** The Inbound list's filters: every one GET /user/inbound takes (docs/inbound.md), and the page. */
export interface InboundFilters {
  fromEmail: string;
  toEmail: string;
  startDate: string;
  endDate: string;
  take: number;
  page: number;
}

/** The Webhooks page's delivery filters. */
export interface DeliveryFilters {
  endpointId: string;
  type: LoggedEventType | '';
  page: number;
}

type AuditQuery = NonNullable<paths['/user/audit-log']['get']['parameters']['query']>;
export type AuditAction = NonNullable<AuditQuery['action']>;

/** The audit log's filters (docs/teams.md#audit-log): an actor's id and an action, and the page. */
export interface AuditFilters {
  actor: string;
  action: AuditAction | '';
  take: number;
  page: number;
}
