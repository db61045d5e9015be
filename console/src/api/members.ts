import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberSession } from './caller';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';
import { useSingleMutation } from './use-single-mutation';

export type Member = Schemas['MemberResponse'];
export type NewMember = Schemas['InviteMemberDto'];

/** The account's members and pending invitations (docs/teams.md#members-and-roles). */
export function useMembers() {
  return useQuery({ queryKey: queryKeys.members.all, queryFn: () => unwrap(api.GET('/user/members')) });
}

export function useInviteMember() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (body: NewMember) => unwrap(api.POST('/user/members', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.members.all }),
  });
}

export function useChangeRole() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: ({ id, role }: { id: string; role: Member['role'] }) =>
      unwrap(api.PATCH('/user/members/{id}', { params: { path: { id } }, body: { role } })),
    onSuccess: async (_member, { id }) => {
      // A manager who changed its own role: what the console shows as allowed follows at once.
      if (client.getQueryData<MemberSession>(queryKeys.session)?.member.id === id)
        await Promise.all([
          client.invalidateQueries({ queryKey: queryKeys.session }),
          client.invalidateQueries({ queryKey: ['caller'] }),
        ]);
      await client.invalidateQueries({ queryKey: queryKeys.members.all });
    },
  });
}

export function useRemoveMember() {
  const client = useQueryClient();
  return useSingleMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/user/members/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.members.all }),
  });
}
