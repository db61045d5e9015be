import { AUDIT_ACTIONS, type AuditFilters } from '../../api/audit-log';
import { oneOf, pageNumber, pageSize, text, UrlFilters } from '../../components/list-page/url-filters';

/** The audit log's view in its URL (`?actor=…&action=member.signed_in&page=2`). */
export const auditUrl = new UrlFilters<AuditFilters>({
  actor: text(),
  action: oneOf(AUDIT_ACTIONS),
  take: pageSize(),
  page: pageNumber(),
});

export const AUDIT_FILTERS = ['actor', 'action'] as const;
