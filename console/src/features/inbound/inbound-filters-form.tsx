import { useState, type FormEvent } from 'react';
import type { InboundFilters } from '../../api/inbound';
import { PAGE_SIZES } from '../../api/messages';

type TextFilter = 'fromEmail' | 'toEmail' | 'startDate' | 'endDate';
const TEXT: readonly TextFilter[] = ['fromEmail', 'toEmail', 'startDate', 'endDate'];
const OPEN_AT_START = window.matchMedia('(min-width: 641px)').matches;

/** Every filter of GET /user/inbound (SPEC §13); applying them starts again at page 1. */
export function InboundFiltersForm({
  filters,
  onApply,
}: {
  filters: InboundFilters;
  onApply: (next: InboundFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [shownFor, setShownFor] = useState(filters);
  // A new URL (back, forward, a link) resets what the form shows.
  if (shownFor !== filters) {
    setShownFor(filters);
    setDraft(filters);
  }
  const field = (name: TextFilter) => ({
    id: `inbound-${name}`,
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, page: 1 });
  };
  const active = TEXT.filter((name) => filters[name] !== '').length;
  return (
    // Folded on a narrow screen, so that the list is what a phone shows first.
    <details className="filters card" open={OPEN_AT_START}>
      <summary>Filters{active > 0 && ` (${active} applied)`}</summary>
      <form onSubmit={submit} aria-label="Filter inbound mail">
        <div className="filter-grid">
          <label htmlFor="inbound-fromEmail">From</label>
          <input type="email" placeholder="sender@example.org" {...field('fromEmail')} />
          <label htmlFor="inbound-toEmail">To</label>
          <input type="email" placeholder="desk@your-domain.example" {...field('toEmail')} />
          <label htmlFor="inbound-startDate">Received from</label>
          <input type="date" {...field('startDate')} />
          <label htmlFor="inbound-endDate">Received until</label>
          <input type="date" {...field('endDate')} />
          <label htmlFor="inbound-take">Per page</label>
          <select
            id="inbound-take"
            name="take"
            value={draft.take}
            onChange={(event) => setDraft({ ...draft, take: Number(event.target.value) })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <div className="form-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => onApply({ ...filters, fromEmail: '', toEmail: '', startDate: '', endDate: '', page: 1 })}
          >
            Clear
          </button>
        </div>
      </form>
    </details>
  );
}
