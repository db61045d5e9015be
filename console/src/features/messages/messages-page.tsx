import { useMessages } from '../../api/messages';
import { LiveListView } from '../../components/list-page/live-list-view';
import { useUrlFilters } from '../../components/list-page/url-filters';
import { Empty } from '../../components/states';
import { FiltersForm } from './filters-form';
import { MessagesTable } from './messages-table';
import { SearchForm } from './search-form';
import { messagesUrl } from './url-filters';

/** The message list (docs/api.md#routes) with its filters and page in the URL, so a view can be shared or reloaded. */
export function MessagesPage() {
  const { filters, show, filtered } = useUrlFilters(messagesUrl);
  const query = useMessages(filters);

  return (
    <section aria-labelledby="messages-title">
      <h1 id="messages-title">Messages</h1>
      <SearchForm q={filters.q} onSearch={(q) => show({ ...filters, q, page: 1 })} />
      <FiltersForm filters={filters} onApply={show} />
      <LiveListView
        query={query}
        what="messages"
        rowsOf={(page) => page.messages}
        filtered={filtered}
        noneYet={
          <Empty title="No messages yet">
            Send one with <code>POST /sender/send</code> and it shows up here.
          </Empty>
        }
        noMatch={
          <Empty title={filters.q ? `No message matches “${filters.q}”` : 'No message matches these filters'}>
            Change or clear the {filters.q ? 'search or the filters' : 'filters'}.
          </Empty>
        }
        noun="messages"
        one="message"
        onPage={(page) => show({ ...filters, page })}
      >
        {(page) => <MessagesTable messages={page.messages} />}
      </LiveListView>
    </section>
  );
}
