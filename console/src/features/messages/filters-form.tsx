import { useState, type FormEvent } from 'react';
import { MESSAGE_STATUSES, PAGE_SIZES, type MessageFilters, type MessageStatus } from '../../api/messages';

const TEXT = ['fromEmail', 'toEmail', 'startDate', 'endDate', 'bulkSending'] as const;
const OPEN_AT_START = window.matchMedia('(min-width: 641px)').matches;

/** Every filter of SPEC §6; applying them starts again at page 1. */
export function FiltersForm({
  filters,
  onApply,
}: {
  filters: MessageFilters;
  onApply: (next: MessageFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [shownFor, setShownFor] = useState(filters);
  // A new URL (back, forward, a link) resets what the form shows.
  if (shownFor !== filters) {
    setShownFor(filters);
    setDraft(filters);
  }
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, page: 1 });
  };
  const clear = () =>
    onApply({
      ...filters,
      statuses: [],
      fromEmail: '',
      toEmail: '',
      startDate: '',
      endDate: '',
      bulkSending: '',
      page: 1,
    });

  const active = [filters.statuses.length > 0, ...TEXT.map((name) => filters[name] !== '')].filter(Boolean).length;
  return (
    // Folded on a narrow screen, so that the list is what a phone shows first.
    <details className="filters card" open={OPEN_AT_START}>
      <summary>Filters{active > 0 && ` (${active} applied)`}</summary>
      <form onSubmit={submit} aria-label="Filter messages">
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
          <label htmlFor="filter-take">Per page</label>
          <select
            id="filter-take"
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
          <button type="button" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
    </details>
  );
}
