import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { useSingleMutation } from './use-single-mutation';
import { queryKeys } from './query-keys';

export type ApiKey = Schemas['ApiKeyResponse'];
export type NewApiKey = Schemas['CreateApiKeyDto'];

export function useApiKeys() {
  return useQuery({ queryKey: queryKeys.apiKeys.all, queryFn: () => unwrap(api.GET('/user/api-keys')) });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (body: NewApiKey) => unwrap(api.POST('/user/api-keys', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys.all }),
  });
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/user/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys.all }),
  });
}
