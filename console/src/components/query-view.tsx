import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Failure, InlineError, Loading, type WayBack } from './states';

/** A query's loading and error states, then its data. */
export function QueryView<T>({
  query,
  what,
  children,
  inputTitle,
  back,
}: {
  query: UseQueryResult<T>;
  what: string;
  /** As Failure's: the title of a 4xx answer, and where a 404 leads back to. */
  inputTitle?: string;
  back?: WayBack;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  // A live list's refresh that failed: the rows already shown stay where the reader is, with a word.
  if (query.isError && query.data !== undefined)
    return (
      <>
        <InlineError error={query.error} />
        {children(query.data)}
      </>
    );
  if (query.isError)
    return <Failure error={query.error} onRetry={() => void query.refetch()} inputTitle={inputTitle} back={back} />;
  return <>{children(query.data)}</>;
}
