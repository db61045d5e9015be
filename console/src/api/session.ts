/**
 * How this tab is signed in (docs/architecture.md#the-console): a member's session cookie, which the
 * browser keeps and sends (HttpOnly: the console never sees it), or a pasted API key or JWT, kept in
 * this tab's sessionStorage (gone when the tab closes, forgotten at once on sign-out or when the API
 * answers 401).
 */
const KEY = 'mailroom.credential';

export type SignedOutReason = 'signed-out' | 'expired';

/** `checking`: no key in this tab; whether a cookie session exists is being asked (GET /session). */
export type SessionMode = 'key' | 'cookie' | 'checking' | null;

interface SessionState {
  mode: SessionMode;
  /** The pasted key or JWT, in `key` mode only. */
  token: string | null;
  /** Why there is no session, so that sign-in can say so after a 401. */
  reason: SignedOutReason | null;
  /** How the reader signed in last in this tab, so that sign-in offers that way again. */
  last: 'key' | 'cookie' | null;
}

const stored = sessionStorage.getItem(KEY);
let state: SessionState = stored
  ? { mode: 'key', token: stored, reason: null, last: 'key' }
  : { mode: 'checking', token: null, reason: null, last: null };
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  if (next.token) sessionStorage.setItem(KEY, next.token);
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

const signedIn = (): boolean => state.mode === 'key' || state.mode === 'cookie';

export const session = {
  get: (): SessionState => state,
  token: (): string | null => state.token,
  /** Whether requests are authenticated by the cookie (and carry no Authorization). */
  cookie: (): boolean => state.mode === 'cookie',
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn: (token: string): void => set({ mode: 'key', token, reason: null, last: 'key' }),
  /** The API set the session cookie (sign-in, an accepted invitation) or GET /session found one. */
  signInWithCookie: (): void => set({ mode: 'cookie', token: null, reason: null, last: 'cookie' }),
  /** GET /session found none at load: sign-in, without a reason to give. */
  noSession: (): void => {
    if (state.mode === 'checking') set({ ...state, mode: null });
  },
  signOut: (): void => set({ mode: null, token: null, reason: 'signed-out', last: state.last }),
  /** The API refused the credential or the session (401): expired, ended, or the key was deleted. */
  expire: (): void => {
    if (signedIn()) set({ mode: null, token: null, reason: 'expired', last: state.last });
  },
};
