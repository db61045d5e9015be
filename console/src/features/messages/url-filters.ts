import { MESSAGE_STATUSES, type MessageFilters } from '../../api/messages';
import { pageNumber, pageSize, someOf, text, UrlFilters } from '../../components/list-page/url-filters';

/** The Messages list's view in its URL (`?statuses=sent,failed&q=invoice&page=2`). */
export const messagesUrl = new UrlFilters<MessageFilters>({
  statuses: someOf(MESSAGE_STATUSES),
  fromEmail: text(),
  toEmail: text(),
  startDate: text(),
  endDate: text(),
  bulkSending: text(),
  q: text(),
  take: pageSize(),
  page: pageNumber(),
});

/** What the folded filter panel holds (the search has its own form above it). */
export const PANEL_FILTERS = ['statuses', 'fromEmail', 'toEmail', 'startDate', 'endDate', 'bulkSending'] as const;
