import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { session } from '../../api/session';
import { answer, on, problem, requestsTo } from '../../testing/mock-api';
import { aMemberSession } from '../../testing/render-page';
import { SignInPage } from './sign-in-page';

/** Where "Forgot your password?" leads, and the address it carried there. */
function ResetProbe() {
  const { email } = useLocation().state as { email: string };
  return <p>{`The reset page, for ${email}`}</p>;
}

const show = (reason: 'signed-out' | 'expired' | null = null, last: 'key' | 'cookie' | null = null) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<SignInPage reason={reason} last={last} />} />
          <Route path="/password-reset" element={<ResetProbe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

/** An API without GET /session/methods yet: the password only. */
const noMethodsRoute = () => answer('GET /session/methods', { password: true, oidc: false });

const withKey = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Sign in with a key' }));
};

describe('the sign-in page', () => {
  it('says why the reader was signed out after the API refused the credential', () => {
    noMethodsRoute();
    show('expired', 'key');
    expect(screen.getByText(/The API refused the credential/)).toBeInTheDocument();
  });

  it('offers the email and password first, and no identity provider when the API has none', async () => {
    noMethodsRoute();
    show();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('/session/methods')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('links to the identity provider when GET /session/methods offers one', async () => {
    answer('GET /session/methods', { password: true, oidc: true });
    show();
    expect(await screen.findByRole('link', { name: 'Sign in with single sign-on' })).toHaveAttribute(
      'href',
      '/session/oidc',
    );
  });

  it('signs in with the cookie the API sets, sending no Authorization', async () => {
    noMethodsRoute();
    answer('POST /session', aMemberSession('viewer'));
    answer('GET /user/me', { userId: 'user-1', credential: 'session', scopes: ['read'], apiKeyId: null });
    show();
    await userEvent.type(screen.getByLabelText('Email'), 'grace@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery staple');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(session.get().mode).toBe('cookie'));
    const signIn = requestsTo('/session')[0]!;
    expect(await signIn.json()).toEqual({ email: 'grace@example.com', password: 'correct horse battery staple' });
    expect(signIn.headers.get('Authorization')).toBeNull();
    expect(requestsTo('/user/me')[0]!.headers.get('Authorization')).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it('shows a 429 with the wait the API names, and stays signed out', async () => {
    noMethodsRoute();
    problem('POST /session', 429, 'Too many failed sign-ins; retry after 840 s.');
    show();
    await userEvent.type(screen.getByLabelText('Email'), 'grace@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong password here');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('retry after 840 s');
    expect(session.get().mode).not.toBe('cookie');
  });

  it('leads from "Forgot your password?" to the reset page, with the address typed so far', async () => {
    noMethodsRoute();
    show();
    await userEvent.type(screen.getByLabelText('Email'), ' grace@example.com ');
    await userEvent.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByText('The reset page, for grace@example.com')).toBeInTheDocument();
    expect(requestsTo('/session')).toHaveLength(0);
  });

  it('waits for the API before keeping a key', async () => {
    noMethodsRoute();
    on('GET /user/me', () => 'pending');
    show();
    await withKey();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'mr_pending');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('button', { name: 'Signing in…' })).toBeDisabled();
    expect(session.token()).toBeNull();
  });

  it("shows the API's refusal and keeps no credential", async () => {
    noMethodsRoute();
    problem('GET /user/me', 401, 'The API key is not valid.');
    show();
    await withKey();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'mr_wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The API key is not valid.');
    expect(session.token()).toBeNull();
  });

  it('keeps a credential the API names, without its Bearer prefix', async () => {
    noMethodsRoute();
    answer('GET /user/me', { userId: 'ada', credential: 'api-key', scopes: ['send'], apiKeyId: 'key-1' });
    show();
    await withKey();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'Bearer mr_good');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // The console replaces this page once the session holds the credential.
    await waitFor(() => expect(session.token()).toBe('mr_good'));
  });
});
