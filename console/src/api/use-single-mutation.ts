import { useRef } from 'react';
import { useMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';

export type SingleMutation<TData, TVariables> = Omit<UseMutationResult<TData, DefaultError, TVariables>, 'mutateAsync'>;

/**
 * useMutation for a console action: a second `mutate` with the same variables while the first is
 * still in flight is ignored. `isPending` disables the button only once React re-renders, which
 * is too late for a double click: its second click would send a second POST (two endpoints, two
 * keys). The guard is a ref, set synchronously, and cleared in the hook-level onSettled, which
 * runs whether the request succeeded or failed. Other variables (another row's Replay) still go.
 * mutateAsync is left out so that no caller can go around the guard.
 */
export function useSingleMutation<TData, TVariables = void>(
  options: UseMutationOptions<TData, DefaultError, TVariables>,
): SingleMutation<TData, TVariables> {
  const inFlight = useRef(new Set<string>());
  const keyOf = (variables: TVariables) => JSON.stringify(variables) ?? '';
  const { mutateAsync: _unguarded, ...mutation } = useMutation<TData, DefaultError, TVariables>({
    ...options,
    onSettled: (...args) => {
      inFlight.current.delete(keyOf(args[2]));
      return options.onSettled?.(...args);
    },
  });
  const mutate: typeof mutation.mutate = (...args) => {
    const key = keyOf(args[0] as TVariables);
    if (inFlight.current.has(key)) return;
    inFlight.current.add(key);
    mutation.mutate(...args);
  };
  return { ...mutation, mutate };
}
