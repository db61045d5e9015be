import { AUDIT_ACTIONS, type AuditAction, type AuditFilters } from '../../api/audit-log';
import { FilterPanel, PageSizeSelect, useFilterDraft } from '../../components/list-page/filter-panel';
import { AUDIT_FILTERS, auditUrl } from './url-filters';

/** The audit log's filters: who (an entry's actor id) and what (an action); applying starts at page 1. */
export function AuditFiltersForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (next: AuditFilters) => void;
}) {
  const [draft, setDraft] = useFilterDraft(filters);
  return (
    <FilterPanel
      name="Filter the audit log"
      active={auditUrl.active(filters)}
      onApply={() => onApply({ ...draft, actor: draft.actor.trim(), page: 1 })}
      onClear={() => onApply(auditUrl.cleared(filters, AUDIT_FILTERS))}
    >
      <div className="filter-grid">
        <label htmlFor="audit-actor">Actor</label>
        <input
          id="audit-actor"
          name="actor"
          maxLength={255}
          placeholder="a member's, key's or JWT's id"
          value={draft.actor}
          onChange={(event) => setDraft({ ...draft, actor: event.target.value })}
        />
        <label htmlFor="audit-action">Action</label>
        <select
          id="audit-action"
          name="action"
          value={draft.action}
          onChange={(event) => setDraft({ ...draft, action: event.target.value as AuditAction | '' })}
        >
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
        <PageSizeSelect id="audit-take" value={draft.take} onChange={(take) => setDraft({ ...draft, take })} />
      </div>
    </FilterPanel>
  );
}
