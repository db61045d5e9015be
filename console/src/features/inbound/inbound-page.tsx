import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useInboundList, type InboundFilters } from '../../api/inbound';
import { Pager } from '../../components/pager';
import { QueryView } from '../../components/query-view';
import { Empty } from '../../components/states';
import { InboundFiltersForm } from './inbound-filters-form';
import { InboundTable } from './inbound-table';
import { inboundFiltersFromUrl, inboundFiltersToUrl } from './url-filters';

/** Received mail (SPEC §13) with its filters and page in the URL, so a view can be shared or reloaded. */
export function InboundPage() {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // The URL's text is the filters' identity: the same text, the same object, the same query.
  const filters = useMemo(() => inboundFiltersFromUrl(params), [key]);
  const query = useInboundList(filters);
  const show = (next: InboundFilters) => setParams(inboundFiltersToUrl(next));
  const filtered = key !== '' && key !== `page=${filters.page}`;

  return (
    <section aria-labelledby="inbound-title">
      <h1 id="inbound-title">Inbound</h1>
      <InboundFiltersForm filters={filters} onApply={show} />
      <QueryView query={query} what="inbound mail">
        {(page) =>
          page.inbound.length === 0 ? (
            page.total > 0 ? (
              <Empty title="No mail on this page">
                <button type="button" onClick={() => show({ ...filters, page: 1 })}>
                  Go to the first page
                </button>
              </Empty>
            ) : filtered ? (
              <Empty title="No mail matches these filters">Change or clear the filters.</Empty>
            ) : (
              <Empty title="No mail received yet">
                Turn receiving on for a verified domain on the Domains page and publish its MX record.
              </Empty>
            )
          ) : (
            <div aria-busy={query.isPlaceholderData || undefined}>
              <InboundTable mails={page.inbound} />
              <Pager of={page} noun="mails" one="mail" onPage={(next) => show({ ...filters, page: next })} />
            </div>
          )
        }
      </QueryView>
    </section>
  );
}
