/** Previous / next over a paged list of SPEC §6's shape, with where the reader is. */
export function Pager({
  page,
  totalPages,
  total,
  hasNext,
  noun,
  one,
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  hasNext: boolean;
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
