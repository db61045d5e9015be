/** Previous / next over a paged list of docs/api.md#routes's shape, with where the reader is. */
/** What every paged answer of the API says of where it is (docs/api.md#routes). */
export interface Paging {
  page: number;
  totalPages: number;
  total: number;
  hasNext: boolean;
}

export function Pager({
  of: { page, totalPages, total, hasNext },
  noun,
  one,
  onPage,
}: {
  /** The paged answer itself. */
  of: Paging;
  noun: string;
  /** The noun for one of them. */
  one: string;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="pager" aria-label={`${noun} pages`}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ← Previous
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(totalPages, 1)} · {total.toLocaleString('en')} {total === 1 ? one : noun}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={!hasNext}>
        Next →
      </button>
    </nav>
  );
}
