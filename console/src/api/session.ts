/**
 * The credential pasted at sign-in, kept in this tab's sessionStorage (docs/architecture.md#the-console): gone when the
 * tab closes, forgotten at once on sign-out or when the API answers 401.
 */
const KEY = 'mailroom.credential';

export type SignedOutReason = 'signed-out' | 'expired';

interface SessionState {
  token: string | null;
  /** Why there is no token, so that sign-in can say so after a 401. */
  reason: SignedOutReason | null;
}

let state: SessionState = { token: sessionStorage.getItem(KEY), reason: null };
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  if (next.token) sessionStorage.setItem(KEY, next.token);
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export const session = {
  get: (): SessionState => state,
  token: (): string | null => state.token,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn: (token: string): void => set({ token, reason: null }),
  signOut: (): void => set({ token: null, reason: 'signed-out' }),
  /** The API refused the credential (401): expired, or the key was deleted. */
  expire: (): void => {
    if (state.token) set({ token: null, reason: 'expired' });
  },
};
