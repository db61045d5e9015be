import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { session } from '../../api/session';
import { answer, on, problem, requestsTo } from '../../testing/mock-api';
import { aMemberSession } from '../../testing/render-page';
import { NewPasswordPage } from './new-password-page';

const TOKEN = 'r'.repeat(43);
const RESET = `/password-reset/${TOKEN}`;
const NEW_PASSWORD = 'a brand new passphrase';

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[RESET]}>
        <Routes>
          <Route path="/password-reset/:token" element={<NewPasswordPage />} />
          <Route path="/password-reset" element={<p>The page that mails a link</p>} />
          <Route path="/" element={<p>The start of the console</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

const setPassword = async (password: string) => {
  await userEvent.click(screen.getByLabelText('New password'));
  await userEvent.paste(password);
  await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
};

describe('the new password page', () => {
  it("opens with the focus in the new password, with the invitation's bounds and hint", () => {
    show();
    const field = screen.getByLabelText('New password');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('autocomplete', 'new-password');
    expect(field).toHaveAttribute('maxlength', '256');
    expect(field).toHaveAccessibleDescription('12 to 256 characters; a few words you remember make a good one.');
  });

  it('asks for 12 characters at least before sending anything, and sends 12', async () => {
    answer(`POST ${RESET}`, undefined, 204);
    show();
    await setPassword('x'.repeat(11));
    expect(await screen.findByRole('alert')).toHaveTextContent('at least 12 characters');
    expect(screen.getByLabelText('New password')).toHaveFocus();
    expect(requestsTo(RESET)).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('New password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByRole('status');
    expect(await requestsTo(RESET)[0]!.json()).toEqual({ password: 'x'.repeat(12) });
  });

  it('takes 256 characters at most', async () => {
    answer(`POST ${RESET}`, undefined, 204);
    show();
    await setPassword('y'.repeat(257));
    await screen.findByRole('status');
    expect(await requestsTo(RESET)[0]!.json()).toEqual({ password: 'y'.repeat(256) });
  });

  it('shows that it is setting the password, once', async () => {
    on(`POST ${RESET}`, () => 'pending');
    show();
    await setPassword(NEW_PASSWORD);
    expect(screen.getByRole('button', { name: 'Setting the password…' })).toBeDisabled();
    expect(requestsTo(RESET)).toHaveLength(1);
  });

  it('says the password is changed, signs nobody in, and offers sign-in with it', async () => {
    answer(`POST ${RESET}`, undefined, 204);
    show();
    await setPassword(NEW_PASSWORD);
    const changed = await screen.findByRole('status');
    expect(changed).toHaveTextContent('Your password is changed; sign in with it.');
    expect(changed).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(session.get().mode).not.toBe('cookie');
    expect(screen.getByRole('form', { name: 'Member sign-in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).not.toBeInTheDocument();
    expect(await requestsTo(RESET)[0]!.json()).toEqual({ password: NEW_PASSWORD });
  });

  it('signs in with the new password there and lands on the start of the console', async () => {
    answer(`POST ${RESET}`, undefined, 204);
    answer('POST /session', aMemberSession('developer'));
    answer('GET /user/me', {
      userId: 'user-1',
      credential: 'session',
      scopes: ['send', 'read', 'keys'],
      apiKeyId: null,
    });
    show();
    await setPassword(NEW_PASSWORD);
    await userEvent.type(await screen.findByLabelText('Email'), 'grace@example.com');
    await userEvent.type(screen.getByLabelText('Password'), NEW_PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The start of the console')).toBeInTheDocument();
    expect(session.get().mode).toBe('cookie');
    expect(await requestsTo('/session')[0]!.json()).toEqual({ email: 'grace@example.com', password: NEW_PASSWORD });
  });

  it('shows a wrong password at that sign-in and stays', async () => {
    answer(`POST ${RESET}`, undefined, 204);
    problem('POST /session', 401, 'The email address or the password is wrong.');
    show();
    await setPassword(NEW_PASSWORD);
    await userEvent.type(await screen.findByLabelText('Email'), 'grace@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'the old password here');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The email address or the password is wrong.');
    expect(screen.getByRole('status')).toHaveTextContent('Your password is changed');
    expect(session.get().mode).not.toBe('cookie');
  });

  it('says a used, expired or forged link is no more, and leads to asking for a new one', async () => {
    problem(`POST ${RESET}`, 404, 'That password reset (used, expired or never made) does not exist.');
    show();
    await setPassword(NEW_PASSWORD);
    const gone = await screen.findByRole('alert');
    expect(gone).toHaveTextContent('This link was used, has expired or is not a link we sent.');
    expect(gone).toHaveFocus();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(await screen.findByText('The page that mails a link')).toBeInTheDocument();
  });

  it("shows another refusal's detail at the field, to correct and send again", async () => {
    problem(`POST ${RESET}`, 400, 'password must be at most 256 characters.');
    show();
    await setPassword(NEW_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('password must be at most 256 characters.');
    const field = screen.getByLabelText('New password');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Set password' })).toBeEnabled();
  });

  it('leads back to sign-in', async () => {
    show();
    await userEvent.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    expect(await screen.findByText('The start of the console')).toBeInTheDocument();
  });
});
