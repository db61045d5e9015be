import { useInboundList } from '../../api/inbound';
import { LiveListView } from '../../components/list-page/live-list-view';
import { useUrlFilters } from '../../components/list-page/url-filters';
import { Empty } from '../../components/states';
import { InboundFiltersForm } from './inbound-filters-form';
import { InboundTable } from './inbound-table';
import { inboundUrl } from './url-filters';

/** Received mail (docs/inbound.md) with its filters and page in the URL, so a view can be shared or reloaded. */
export function InboundPage() {
  const { filters, show, filtered } = useUrlFilters(inboundUrl);
  const query = useInboundList(filters);

  return (
    <section aria-labelledby="inbound-title">
      <h1 id="inbound-title">Inbound</h1>
      <InboundFiltersForm filters={filters} onApply={show} />
      <LiveListView
        query={query}
        what="inbound mail"
        rowsOf={(page) => page.inbound}
        filtered={filtered}
        noneYet={
          <Empty title="No mail received yet">
            Turn receiving on for a verified domain on the Domains page and publish its MX record.
          </Empty>
        }
        noMatch={<Empty title="No mail matches these filters">Change or clear the filters.</Empty>}
        noun="mails"
        one="mail"
        onPage={(page) => show({ ...filters, page })}
      >
        {(page) => <InboundTable mails={page.inbound} />}
      </LiveListView>
    </section>
  );
}
