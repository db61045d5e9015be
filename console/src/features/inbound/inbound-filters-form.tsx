import type { InboundFilters } from '../../api/inbound';
import { FilterPanel, PageSizeSelect, useFilterDraft } from '../../components/filter-panel';

type TextFilter = 'fromEmail' | 'toEmail' | 'startDate' | 'endDate';
const TEXT: readonly TextFilter[] = ['fromEmail', 'toEmail', 'startDate', 'endDate'];

/** Every filter of GET /user/inbound (SPEC §13); applying them starts again at page 1. */
export function InboundFiltersForm({
  filters,
  onApply,
}: {
  filters: InboundFilters;
  onApply: (next: InboundFilters) => void;
}) {
  const [draft, setDraft] = useFilterDraft(filters);
  const field = (name: TextFilter) => ({
    id: `inbound-${name}`,
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  return (
    <FilterPanel
      name="Filter inbound mail"
      active={TEXT.filter((name) => filters[name] !== '').length}
      onApply={() => onApply({ ...draft, page: 1 })}
      onClear={() => onApply({ ...filters, fromEmail: '', toEmail: '', startDate: '', endDate: '', page: 1 })}
    >
      <div className="filter-grid">
        <label htmlFor="inbound-fromEmail">From</label>
        <input type="email" placeholder="sender@example.org" {...field('fromEmail')} />
        <label htmlFor="inbound-toEmail">To</label>
        <input type="email" placeholder="desk@your-domain.example" {...field('toEmail')} />
        <label htmlFor="inbound-startDate">Received from</label>
        <input type="date" {...field('startDate')} />
        <label htmlFor="inbound-endDate">Received until</label>
        <input type="date" {...field('endDate')} />
        <PageSizeSelect id="inbound-take" value={draft.take} onChange={(take) => setDraft({ ...draft, take })} />
      </div>
    </FilterPanel>
  );
}
