import { useMutationState } from '@tanstack/react-query';

/**
 * Whether any console action succeeded after `since` (a mutation's submittedAt). An error shown
 * beside one control (a 409 on Receive mail) is stale once another action has gone through.
 */
export function useSucceededSince(since: number): boolean {
  const later = useMutationState({
    filters: { status: 'success', predicate: (mutation) => mutation.state.submittedAt > since },
    select: (mutation) => mutation.state.submittedAt,
  });
  return since > 0 && later.length > 0;
}
