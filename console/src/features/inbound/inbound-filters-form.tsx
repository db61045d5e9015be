import type { InboundFilters } from '../../api/inbound';
import { FilterPanel, PageSizeSelect, useFilterDraft } from '../../components/list-page/filter-panel';
import { inboundUrl, TEXT_FILTERS } from './url-filters';

type TextFilter = (typeof TEXT_FILTERS)[number];

/** Every filter of GET /user/inbound (docs/inbound.md); applying them starts again at page 1. */
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
      active={inboundUrl.active(filters)}
      onApply={() => onApply({ ...draft, page: 1 })}
      onClear={() => onApply(inboundUrl.cleared(filters, TEXT_FILTERS))}
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
