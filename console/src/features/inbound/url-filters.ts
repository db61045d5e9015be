import type { InboundFilters } from '../../api/inbound';
import { PAGE_SIZES } from '../../api/messages';

const TEXT_FILTERS = ['fromEmail', 'toEmail', 'startDate', 'endDate'] as const;

const positive = (value: string | null, fallback: number): number => {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : fallback;
};

/** The filters a URL names; the API judges the values, so a bad one shows its 400 detail. */
export function inboundFiltersFromUrl(params: URLSearchParams): InboundFilters {
  return {
    fromEmail: params.get('fromEmail') ?? '',
    toEmail: params.get('toEmail') ?? '',
    startDate: params.get('startDate') ?? '',
    endDate: params.get('endDate') ?? '',
    take: Math.min(positive(params.get('take'), PAGE_SIZES[0]), 100),
    page: positive(params.get('page'), 1),
  };
}

/** The URL of a view: only what differs from the defaults, so that a shared link reads short. */
export function inboundFiltersToUrl(filters: InboundFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of TEXT_FILTERS) if (filters[name]) params.set(name, filters[name]);
  if (filters.take !== PAGE_SIZES[0]) params.set('take', String(filters.take));
  if (filters.page !== 1) params.set('page', String(filters.page));
  return params;
}
