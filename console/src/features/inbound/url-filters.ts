import type { InboundFilters } from '../../api/inbound';
import { pageNumber, pageSize, text, UrlFilters } from '../../components/list-page/url-filters';

/** The Inbound list's view in its URL (`?fromEmail=ada@example.org&page=2`). */
export const inboundUrl = new UrlFilters<InboundFilters>({
  fromEmail: text(),
  toEmail: text(),
  startDate: text(),
  endDate: text(),
  take: pageSize(),
  page: pageNumber(),
});

export const TEXT_FILTERS = ['fromEmail', 'toEmail', 'startDate', 'endDate'] as const;
