import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Pager, type Paging } from '../pager';
import { QueryView } from '../query-view';
import { Empty } from '../states';

/**
 * A live list's page in its states: loading, failed, nothing yet, nothing matching the filters, a
 * page past the end, then its rows (`children`) with the pager. While the next page loads the rows
 * shown stay, marked busy.
 */
export function LiveListView<P extends Paging>({
  query,
  what,
  rowsOf,
  filtered,
  noneYet,
  noMatch,
  noun,
  one,
  onPage,
  children,
}: {
  query: UseQueryResult<P>;
  /** What is loading, as "Loading {what}…" says it. */
  what: string;
  rowsOf: (page: P) => readonly unknown[];
  /** Whether the URL applies filters: an empty answer is then "no match", not "none yet". */
  filtered: boolean;
  noneYet: ReactNode;
  noMatch: ReactNode;
  /** The rows' noun, plural and singular, for the pager and a page past the end. */
  noun: string;
  one: string;
  onPage: (page: number) => void;
  children: (page: P) => ReactNode;
}) {
  return (
    <QueryView query={query} what={what}>
      {(page) =>
        rowsOf(page).length > 0 ? (
          <div aria-busy={query.isPlaceholderData || undefined}>
            {children(page)}
            <Pager of={page} noun={noun} one={one} onPage={onPage} />
          </div>
        ) : page.total > 0 ? (
          // A link to page 9 of a list that has since shrunk to 2.
          <Empty title={`No ${noun} on this page`}>
            <button type="button" onClick={() => onPage(1)}>
              Go to the first page
            </button>
          </Empty>
        ) : filtered ? (
          noMatch
        ) : (
          noneYet
        )
      }
    </QueryView>
  );
}
