import { MESSAGE_STATUSES, type MessageFilters, type MessageStatus } from '../../api/messages';
import { FilterPanel, PageSizeSelect, useFilterDraft } from '../../components/list-page/filter-panel';
import { messagesUrl, PANEL_FILTERS } from './url-filters';

/** Every filter of docs/api.md#routes; applying them starts again at page 1. */
export function FiltersForm({
  filters,
  onApply,
}: {
  filters: MessageFilters;
  onApply: (next: MessageFilters) => void;
}) {
  const [draft, setDraft] = useFilterDraft(filters);
  const text = (name: 'fromEmail' | 'toEmail' | 'startDate' | 'endDate' | 'bulkSending') => ({
    id: `filter-${name}`,
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const toggle = (status: MessageStatus) =>
    setDraft({
      ...draft,
      statuses: draft.statuses.includes(status)
        ? draft.statuses.filter((s) => s !== status)
        : MESSAGE_STATUSES.filter((s) => s === status || draft.statuses.includes(s)),
    });
  return (
    <FilterPanel
      name="Filter messages"
      active={messagesUrl.active(filters, PANEL_FILTERS)}
      onApply={() => onApply({ ...draft, page: 1 })}
      onClear={() => onApply(messagesUrl.cleared(filters, PANEL_FILTERS))}
    >
      <fieldset className="statuses">
        <legend>Status</legend>
        {MESSAGE_STATUSES.map((status) => (
          <label key={status} className="check">
            <input
              type="checkbox"
              name="statuses"
              value={status}
              checked={draft.statuses.includes(status)}
              onChange={() => toggle(status)}
            />
            {status}
          </label>
        ))}
      </fieldset>
      <div className="filter-grid">
        <label htmlFor="filter-fromEmail">From</label>
        <input type="email" placeholder="sender@example.com" {...text('fromEmail')} />
        <label htmlFor="filter-toEmail">To</label>
        <input type="email" placeholder="recipient@example.com" {...text('toEmail')} />
        <label htmlFor="filter-startDate">Sent from</label>
        <input type="date" {...text('startDate')} />
        <label htmlFor="filter-endDate">Sent until</label>
        <input type="date" {...text('endDate')} />
        <label htmlFor="filter-bulkSending">Bulk sending id</label>
        <input type="text" {...text('bulkSending')} />
        <PageSizeSelect id="filter-take" value={draft.take} onChange={(take) => setDraft({ ...draft, take })} />
      </div>
    </FilterPanel>
  );
}
