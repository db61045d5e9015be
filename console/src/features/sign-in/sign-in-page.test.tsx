import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { session } from '../../api/session';
import { answer, on, problem } from '../../testing/mock-api';
import { SignInPage } from './sign-in-page';

const show = (reason: 'signed-out' | 'expired' | null = null) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SignInPage reason={reason} />
    </QueryClientProvider>,
  );

describe('the sign-in page', () => {
  it('says why the reader was signed out after the API refused the credential', () => {
    show('expired');
    expect(screen.getByText(/The API refused the credential/)).toBeInTheDocument();
  });

  it('waits for the API before keeping a credential', async () => {
    on('GET /user/me', () => 'pending');
    show();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'mr_pending');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('button', { name: 'Signing in…' })).toBeDisabled();
    expect(session.token()).toBeNull();
  });

  it("shows the API's refusal and keeps no credential", async () => {
    problem('GET /user/me', 401, 'The API key is not valid.');
    show();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'mr_wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The API key is not valid.');
    expect(session.token()).toBeNull();
  });

  it('keeps a credential the API names, without its Bearer prefix', async () => {
    answer('GET /user/me', { userId: 'ada', credential: 'api-key', scopes: ['send'], apiKeyId: 'key-1' });
    show();
    await userEvent.type(screen.getByLabelText('API key or JWT'), 'Bearer mr_good');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // The console replaces this page once the session holds the credential.
    await waitFor(() => expect(session.token()).toBe('mr_good'));
  });
});
