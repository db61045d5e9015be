import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { useSingleMutation } from './use-single-mutation';
import { queryKeys } from './query-keys';

export type Domain = Schemas['DomainResponse'];
export type DnsRecord = Schemas['DnsRecordResponse'];
export type Verification = Schemas['DomainVerificationResponse'];

export function useDomains() {
  return useQuery({ queryKey: queryKeys.domains.all, queryFn: () => unwrap(api.GET('/domains')) });
}

export function useAddDomain() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (name: string) => unwrap(api.POST('/domains', { body: { name } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.domains.all }),
  });
}

/** Looks the domain's records up; the answer says which are missing and why. */
export function useVerifyDomain() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (id: string) => unwrap(api.POST('/domains/{id}/verify', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.domains.all }),
  });
}

export function useDeleteDomain() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/domains/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.domains.all }),
  });
}

/** Turns receiving on or off (docs/inbound.md); a pending domain, or a name another user receives for, is a 409. */
export function useSetReceiving() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: ({ id, receiving }: { id: string; receiving: boolean }) =>
      unwrap(api.PATCH('/domains/{id}', { params: { path: { id } }, body: { receiving } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.domains.all }),
  });
}
