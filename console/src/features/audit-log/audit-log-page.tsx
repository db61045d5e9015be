import { useAuditLogPermission } from '../../api/caller';
import { useAuditLog } from '../../api/audit-log';
import { LiveListView } from '../../components/list-page/live-list-view';
import { useUrlFilters } from '../../components/list-page/url-filters';
import { Empty, NotAllowed } from '../../components/states';
import { AuditFiltersForm } from './audit-filters-form';
import { AuditTable } from './audit-table';
import { auditUrl } from './url-filters';

/**
 * Every change to the account, who made it and from where (docs/teams.md#audit-log), newest first;
 * the filters and the page are in the URL, as the Messages page keeps its own.
 */
export function AuditLogPage() {
  const permission = useAuditLogPermission();
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      {permission.allowed ? <AuditLogView /> : <NotAllowed detail={permission.reason ?? ''} />}
    </section>
  );
}

function AuditLogView() {
  const { filters, show, filtered } = useUrlFilters(auditUrl);
  const query = useAuditLog(filters);
  return (
    <>
      <AuditFiltersForm filters={filters} onApply={show} />
      <LiveListView
        query={query}
        what="the audit log"
        rowsOf={(page) => page.entries}
        filtered={filtered}
        noneYet={
          <Empty title="No changes yet">Keys, domains, endpoints, members and sign-ins are recorded here.</Empty>
        }
        noMatch={<Empty title="No changes match these filters">Change or clear the filters.</Empty>}
        noun="changes"
        one="change"
        onPage={(page) => show({ ...filters, page })}
      >
        {(page) => <AuditTable entries={page.entries} />}
      </LiveListView>
    </>
  );
}
