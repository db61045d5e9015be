import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useMessages, type MessageFilters } from '../../api/messages';
import { Pager } from '../../components/pager';
import { QueryView } from '../../components/query-view';
import { Empty } from '../../components/states';
import { FiltersForm } from './filters-form';
import { SearchForm } from './search-form';
import { MessagesTable } from './messages-table';
import { filtersFromUrl, filtersToUrl } from './url-filters';

/** The message list (SPEC §6) with its filters and page in the URL, so a view can be shared or reloaded. */
export function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // The URL's text is the filters' identity: the same text, the same object, the same query.
  const filters = useMemo(() => filtersFromUrl(params), [key]);
  const query = useMessages(filters);
  const show = (next: MessageFilters) => setParams(filtersToUrl(next));
  const filtered = key !== '' && key !== `page=${filters.page}`;

  return (
    <section aria-labelledby="messages-title">
      <h1 id="messages-title">Messages</h1>
      <SearchForm q={filters.q} onSearch={(q) => show({ ...filters, q, page: 1 })} />
      <FiltersForm filters={filters} onApply={show} />
      <QueryView query={query} what="messages">
        {(page) =>
          page.messages.length === 0 ? (
            page.total > 0 ? (
              <Empty title="No messages on this page">
                <button type="button" onClick={() => show({ ...filters, page: 1 })}>
                  Go to the first page
                </button>
              </Empty>
            ) : filtered ? (
              <Empty title={filters.q ? `No message matches “${filters.q}”` : 'No message matches these filters'}>
                Change or clear the {filters.q ? 'search or the filters' : 'filters'}.
              </Empty>
            ) : (
              <Empty title="No messages yet">
                Send one with <code>POST /sender/send</code> and it shows up here.
              </Empty>
            )
          ) : (
            <div aria-busy={query.isPlaceholderData || undefined}>
              <MessagesTable messages={page.messages} />
              <Pager of={page} noun="messages" one="message" onPage={(next) => show({ ...filters, page: next })} />
            </div>
          )
        }
      </QueryView>
    </section>
  );
}
