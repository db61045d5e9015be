import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { useSession } from '../api/caller';
import { session } from '../api/session';
import { useCookieSessionCheck } from '../api/member-session';
import { Failure, Loading } from '../components/states';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { Layout } from './layout';
import { queryClient } from './query-client';
import { AppRoutes } from './routes';

// Public, as the invitation and password reset mails' links lead there signed out; each its own chunk like every page.
const InvitationPage = lazy(() =>
  import('../features/invitation/invitation-page').then((m) => ({ default: m.InvitationPage })),
);
const RequestResetPage = lazy(() =>
  import('../features/password-reset/request-reset-page').then((m) => ({ default: m.RequestResetPage })),
);
const NewPasswordPage = lazy(() =>
  import('../features/password-reset/new-password-page').then((m) => ({ default: m.NewPasswordPage })),
);

/** A page open to anyone, outside the sign-in gate. */
function Public({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading what="the page" delayed />}>{children}</Suspense>;
}

const isSignedIn = (): boolean => session.get().mode === 'key' || session.get().mode === 'cookie';
let wasSignedIn = isSignedIn();
// Nothing of one session's data may show under another's: forgotten the moment a session ends,
// before sign-in renders, so that sign-in's own query (GET /session/methods) is not forgotten with it.
session.subscribe(() => {
  if (wasSignedIn && !isSignedIn()) queryClient.clear();
  wasSignedIn = isSignedIn();
});

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
              <Public>
                <InvitationPage />
              </Public>
            }
          />
          <Route
            path="password-reset"
            element={
              <Public>
                <RequestResetPage />
              </Public>
            }
          />
          <Route
            path="password-reset/:token"
            element={
              <Public>
                <NewPasswordPage />
              </Public>
            }
          />
          <Route path="*" element={<Gate />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
