import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { useSingleMutation } from './use-single-mutation';
import { queryKeys } from './query-keys';

export type Suppression = Schemas['SuppressionResponse'];
export type NewSuppression = Schemas['CreateSuppressionDto'];

export function useSuppressions(email: string, page: number) {
  return useQuery({
    queryKey: queryKeys.suppressions.list(email, page),
    queryFn: () =>
      unwrap(api.GET('/user/suppressions', { params: { query: { email: email || undefined, page, take: 25 } } })),
    placeholderData: keepPreviousData,
  });
}

export function useAddSuppression() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (body: NewSuppression) => unwrap(api.POST('/user/suppressions', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.suppressions.all }),
  });
}

export function useRemoveSuppression() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (email: string) => unwrap(api.DELETE('/user/suppressions/{email}', { params: { path: { email } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.suppressions.all }),
  });
}
