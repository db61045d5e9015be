import type { FormEvent } from 'react';
import { useFilterDraft } from '../../components/list-page/filter-panel';

/**
 * The free-text search (`q`, docs/api.md#routes): subjects and recipients. Outside the folded filters, so
 * that looking a mail up is the first thing the page offers; applying it starts again at page 1.
 */
export function SearchForm({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useFilterDraft(q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <form className="card inline-form" role="search" aria-label="Search messages" onSubmit={submit}>
      <label htmlFor="messages-q">Search subjects and recipients</label>
      <input
        id="messages-q"
        type="search"
        name="q"
        maxLength={200}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="invoice, ada@example.com"
      />
      <button type="submit">Search</button>
    </form>
  );
}
