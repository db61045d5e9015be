import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Failure, Loading } from './states';

/** A query's loading and error states, then its data. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <Failure error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
