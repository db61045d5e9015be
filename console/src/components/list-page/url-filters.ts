import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** The sizes a list offers per page; the first is the default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** How one of a list's filters reads from its URL parameter and writes back to it. */
export interface UrlField<T> {
  /** The parameter's name in the URL, when it is not the filter's own. */
  param?: string;
  default: T;
  /** The value a URL names; missing or unusable reads as the default (the API judges the rest). */
  parse: (raw: string | null) => T;
  format: (value: T) => string;
  /** Where the reader is in the list (page, page size) rather than what it is filtered by. */
  paging?: boolean;
}

export type UrlFields<F> = { [K in keyof F]: UrlField<F[K]> };

const positive = (raw: string | null, fallback: number): number => {
  const number = Number(raw);
  return raw !== null && Number.isInteger(number) && number >= 1 ? number : fallback;
};

/** Free text, '' when not applied. */
export const text = (param?: string): UrlField<string> => ({
  param,
  default: '',
  parse: (raw) => raw ?? '',
  format: (value) => value,
});

/** One of `values`, '' when not applied; another value in the URL reads as none. */
export function oneOf<T extends string>(values: readonly T[], param?: string): UrlField<T | ''> {
  return {
    param,
    default: '',
    parse: (raw) => values.find((value) => value === raw) ?? '',
    format: (value) => value,
  };
}

/** Any of `values`, comma-separated in the URL and kept in the order of `values`. */
export function someOf<T extends string>(values: readonly T[], param?: string): UrlField<T[]> {
  return {
    param,
    default: [],
    parse: (raw) => {
      const named = new Set((raw ?? '').split(','));
      return values.filter((value) => named.has(value));
    },
    format: (chosen) => chosen.join(','),
  };
}

export const pageNumber = (): UrlField<number> => ({
  default: 1,
  parse: (raw) => positive(raw, 1),
  format: String,
  paging: true,
});

export const pageSize = (): UrlField<number> => ({
  default: PAGE_SIZES[0],
  // The API's own ceiling: a larger take in a shared link shows its largest page, not a 400.
  parse: (raw) => Math.min(positive(raw, PAGE_SIZES[0]), 100),
  format: String,
  paging: true,
});

/** A list's filters and page in its URL: a view can be shared, reloaded, and gone back to. */
export class UrlFilters<F> {
  constructor(readonly fields: UrlFields<F>) {}

  private get names(): (keyof F & string)[] {
    return Object.keys(this.fields) as (keyof F & string)[];
  }

  private isDefault<K extends keyof F>(name: K, value: F[K]): boolean {
    const field = this.fields[name];
    return field.format(value) === field.format(field.default);
  }

  fromUrl(params: URLSearchParams): F {
    const entries = this.names.map((name) => {
      const field = this.fields[name];
      return [name, field.parse(params.get(field.param ?? name))];
    });
    return Object.fromEntries(entries) as F;
  }

  /** Only what differs from the defaults, so that a shared link reads short; a filter left out is its default. */
  toUrl(filters: Partial<F>): URLSearchParams {
    const params = new URLSearchParams();
    for (const name of this.names) {
      const field = this.fields[name];
      const value = filters[name];
      if (value !== undefined && !this.isDefault(name, value)) params.set(field.param ?? name, field.format(value));
    }
    return params;
  }

  /** The link to this list filtered so (`?endpoint=…`), for another part of the page. */
  search(filters: Partial<F>): string {
    return `?${this.toUrl(filters).toString()}`;
  }

  /** How many of `names` (every filter but the paging, unless told) are applied. */
  active(filters: F, names: readonly (keyof F)[] = this.names.filter((name) => !this.fields[name].paging)): number {
    return names.filter((name) => !this.isDefault(name, filters[name])).length;
  }

  /** The same view with `names` back to their defaults, from page 1. */
  cleared(filters: F, names: readonly (keyof F)[]): F {
    const next = { ...filters };
    for (const name of [...names, 'page' as keyof F]) if (name in this.fields) next[name] = this.fields[name].default;
    return next;
  }
}

/**
 * The filters the URL applies now and the way to show others. The URL's text is their identity:
 * the same text, the same object, so the same query key and no refetch on an unrelated render.
 */
export function useUrlFilters<F>(list: UrlFilters<F>): { filters: F; show: (next: F) => void; filtered: boolean } {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  const filters = useMemo(() => list.fromUrl(new URLSearchParams(query)), [list, query]);
  return { filters, show: (next) => setParams(list.toUrl(next)), filtered: list.active(filters) > 0 };
}
