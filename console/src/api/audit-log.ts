import { pathsUserAuditLogGetParametersQueryActionValues } from '../../generated/openapi';
import { api, unwrap, type Schemas } from './client';
import type { AuditAction, AuditFilters } from './list-filters';
import { useLiveList } from './live-list';
import { queryKeys } from './query-keys';

export type { AuditAction, AuditFilters } from './list-filters';
export type AuditEntry = Schemas['AuditLogEntryResponse'];

/** Every action the filter takes, as the API's document lists them. */
export const AUDIT_ACTIONS: readonly AuditAction[] = pathsUserAuditLogGetParametersQueryActionValues;

/** A page of the audit log, newest first (docs/teams.md#audit-log), refreshed as the other lists are. */
export function useAuditLog(filters: AuditFilters) {
  return useLiveList(queryKeys.auditLog.list(filters), () =>
    unwrap(
      api.GET('/user/audit-log', {
        params: {
          query: {
            take: filters.take,
            page: filters.page,
            actor: filters.actor || undefined,
            action: filters.action || undefined,
          },
        },
      }),
    ),
  );
}
