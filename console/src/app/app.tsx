import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { useSession } from '../api/caller';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { Layout } from './layout';
import { queryClient } from './query-client';
import { AppRoutes } from './routes';

/** Signed in: the console at the URL asked for; otherwise sign-in, which leaves the URL as it is. */
function Gate() {
  const { token, reason } = useSession();
  // Nothing of one credential's data may show under another's.
  useEffect(() => {
    if (!token) queryClient.clear();
  }, [token]);
  if (!token) return <SignInPage reason={reason} />;
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
        <Gate />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
