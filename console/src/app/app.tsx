import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { useSession } from '../api/caller';
import { useCookieSessionCheck } from '../api/member-session';
import { Failure, Loading } from '../components/states';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { Layout } from './layout';
import { queryClient } from './query-client';
import { AppRoutes } from './routes';

// Public, as the invitation mail's link leads there signed out; its own chunk like every page.
const InvitationPage = lazy(() =>
  import('../features/invitation/invitation-page').then((m) => ({ default: m.InvitationPage })),
);

/** With no key in this tab: whether the browser holds a member's session, asked once at load. */
function SessionCheck() {
  const check = useCookieSessionCheck();
  if (check.isError)
    return (
      <main className="sign-in" id="main">
        <Failure error={check.error} onRetry={() => void check.refetch()} />
      </main>
    );
  return (
    <main className="sign-in" id="main">
      <Loading what="your session" delayed />
    </main>
  );
}

/** Signed in: the console at the URL asked for; otherwise sign-in, which leaves the URL as it is. */
function Gate() {
  const { mode, reason, last } = useSession();
  // Nothing of one session's data may show under another's.
  useEffect(() => {
    if (mode === null) queryClient.clear();
  }, [mode]);
  if (mode === 'checking') return <SessionCheck />;
  if (mode === null) return <SignInPage reason={reason} last={last} />;
  return (
    <Layout>
      <AppRoutes />
    </Layout>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/console">
        <Routes>
          <Route
            path="invitation/:token"
            element={
              <Suspense fallback={<Loading what="the page" delayed />}>
                <InvitationPage />
              </Suspense>
            }
          />
          <Route path="*" element={<Gate />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
