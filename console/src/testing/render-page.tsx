import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Caller, Scope } from '../api/caller';
import { queryKeys } from '../api/query-keys';
import { session } from '../api/session';

const EVERY_SCOPE: Scope[] = ['send', 'read', 'keys'];

/** Where the router is now, for a test to read what the page put in the URL. */
function LocationProbe() {
  const location = useLocation();
  return <span data-testid="location">{`${location.pathname}${location.search}`}</span>;
}

/**
 * Renders one page as the console shows it, signed in as a credential with `scopes`, at `url`
 * matched against the route `path` (`/messages/:id`). Every query starts fresh and is not
 * retried: a test's error answer shows at once.
 */
export function renderPage(
  page: ReactElement,
  { path, url = path, scopes = EVERY_SCOPE }: { path: string; url?: string; scopes?: Scope[] },
): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  // As sign-in leaves it: the caller GET /user/me answered already in the cache, then the session.
  const caller: Caller = { userId: 'user-1', credential: 'api-key', scopes, apiKeyId: 'key-1' };
  client.setQueryData(queryKeys.caller('mr_test_key'), caller);
  session.signIn('mr_test_key');
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
