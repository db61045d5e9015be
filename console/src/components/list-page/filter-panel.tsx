import { useState, type FormEvent, type ReactNode } from 'react';
import { PAGE_SIZES } from './url-filters';

/** A list's filters being edited: the applied ones until changed, reset when a new URL (back, a link) applies others. */
export function useFilterDraft<F>(filters: F): [F, (next: F) => void] {
  const [draft, setDraft] = useState(filters);
  const [shownFor, setShownFor] = useState(filters);
  if (shownFor !== filters) {
    setShownFor(filters);
    setDraft(filters);
  }
  return [draft, setDraft];
}

/**
 * A list's filter form behind a disclosure, folded unless the URL applies filters: the list is what
 * the page shows first, one Tab from the summary rather than a dozen fields away (issue 33 counted
 * 35 Tabs to the first message). `active` counts the filters applied, for the folded summary.
 */
export function FilterPanel({
  name,
  active,
  onApply,
  onClear,
  children,
}: {
  name: string;
  active: number;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}) {
  // Open or folded as the page first showed it; the reader's own toggles are left alone after.
  const [openAtStart] = useState(active > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <details className="filters card" open={openAtStart}>
      <summary>Filters{active > 0 && ` (${active} applied)`}</summary>
      <form onSubmit={submit} aria-label={name}>
        {children}
        <div className="form-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" onClick={onClear}>
            Clear
          </button>
        </div>
      </form>
    </details>
  );
}

/** "Per page" with its label, for a filter grid. */
export function PageSizeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange: (take: number) => void;
}) {
  return (
    <>
      <label htmlFor={id}>Per page</label>
      <select id={id} name="take" value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </>
  );
}
