import { MESSAGE_STATUSES, PAGE_SIZES, type MessageFilters, type MessageStatus } from '../../api/messages';

const TEXT_FILTERS = ['q', 'fromEmail', 'toEmail', 'startDate', 'endDate', 'bulkSending'] as const;

const positive = (value: string | null, fallback: number): number => {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : fallback;
};

/** The filters a URL names; the API judges the values, so a bad one shows its 400 detail. */
export function filtersFromUrl(params: URLSearchParams): MessageFilters {
  const statuses = (params.get('statuses') ?? '')
    .split(',')
    .filter((status): status is MessageStatus => (MESSAGE_STATUSES as readonly string[]).includes(status));
  const take = positive(params.get('take'), PAGE_SIZES[0]);
  return {
    statuses,
    fromEmail: params.get('fromEmail') ?? '',
    toEmail: params.get('toEmail') ?? '',
    startDate: params.get('startDate') ?? '',
    endDate: params.get('endDate') ?? '',
    bulkSending: params.get('bulkSending') ?? '',
    q: params.get('q') ?? '',
    take: Math.min(take, 100),
    page: positive(params.get('page'), 1),
  };
}

/** The URL of a view: only what differs from the defaults, so that a shared link reads short. */
export function filtersToUrl(filters: MessageFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.statuses.length) params.set('statuses', filters.statuses.join(','));
  for (const name of TEXT_FILTERS) if (filters[name]) params.set(name, filters[name]);
  if (filters.take !== PAGE_SIZES[0]) params.set('take', String(filters.take));
  if (filters.page !== 1) params.set('page', String(filters.page));
  return params;
}
