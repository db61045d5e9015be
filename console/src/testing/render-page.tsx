import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Caller, MemberSession, Role, Scope } from '../api/caller';
import { queryKeys } from '../api/query-keys';
import { session } from '../api/session';

const EVERY_SCOPE: Scope[] = ['send', 'read', 'keys'];
/** What each role may do, as the API's GET /user/me answers for a member (docs/teams.md#members-and-roles). */
const ROLE_SCOPES: Record<Role, Scope[]> = {
  owner: EVERY_SCOPE,
  admin: EVERY_SCOPE,
  developer: EVERY_SCOPE,
  viewer: ['read'],
};

/** A member's session as GET /session answers it. */
export function aMemberSession(role: Role): MemberSession {
  return {
    member: {
      id: 'member-1',
      email: 'grace@example.com',
      name: null,
      role,
      status: 'active',
      invitedAt: '2026-05-04T10:00:00.000Z',
      invitedBy: 'cli',
      joinedAt: '2026-05-04T10:05:00.000Z',
      lastSignInAt: '2026-05-04T10:05:00.000Z',
    },
    account: { userId: 'user-1' },
    role,
    accounts: [{ userId: 'user-1', role }],
  };
}

/** Where the router is now, for a test to read what the page put in the URL. */
function LocationProbe() {
  const location = useLocation();
  return <span data-testid="location">{`${location.pathname}${location.search}`}</span>;
}

/**
 * Renders one page as the console shows it, signed in as a credential with `scopes` (or, `as`
 * `session`, as a member with `role`), at `url`
 * matched against the route `path` (`/messages/:id`). Every query starts fresh and is not
 * retried: a test's error answer shows at once.
 */
export function renderPage(
  page: ReactElement,
  {
    path,
    url = path,
    scopes = EVERY_SCOPE,
    as = 'api-key',
    role = 'owner',
  }: { path: string; url?: string; scopes?: readonly Scope[]; as?: Caller['credential']; role?: Role },
): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  // As sign-in leaves it: the caller GET /user/me answered already in the cache, then the session.
  if (as === 'session') {
    const caller: Caller = { userId: 'user-1', credential: 'session', scopes: ROLE_SCOPES[role], apiKeyId: null };
    client.setQueryData(queryKeys.caller('session'), caller);
    client.setQueryData(queryKeys.session, aMemberSession(role));
    session.signInWithCookie();
  } else {
    const token = as === 'jwt' ? 'eyJ.test.jwt' : 'mr_test_key';
    const caller: Caller = {
      userId: 'user-1',
      credential: as,
      scopes: [...scopes],
      apiKeyId: as === 'jwt' ? null : 'key-1',
    };
    client.setQueryData(queryKeys.caller(token), caller);
    session.signIn(token);
  }
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={page} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
