import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { answer, on, problem, requestsTo } from '../../testing/mock-api';
import { RequestResetPage } from './request-reset-page';

/** The page as "Forgot your password?" opens it, with the address typed at sign-in (or none). */
const show = (email?: string) =>
  render(
    <MemoryRouter initialEntries={[{ pathname: '/password-reset', state: email === undefined ? null : { email } }]}>
      <Routes>
        <Route path="/password-reset" element={<RequestResetPage />} />
        <Route path="/" element={<p>The sign-in page</p>} />
      </Routes>
    </MemoryRouter>,
  );

const ask = () => userEvent.click(screen.getByRole('button', { name: 'Email me a link' }));

describe('the password reset request page', () => {
  it('opens with the focus in the address, the one typed at sign-in', () => {
    show('grace@example.com');
    const field = screen.getByLabelText('Email');
    expect(field).toHaveValue('grace@example.com');
    expect(field).toHaveFocus();
  });

  it('asks for a link and confirms without saying whether the address is a member', async () => {
    answer('POST /password-reset', undefined, 202);
    show();
    await userEvent.type(screen.getByLabelText('Email'), '  grace@example.com ');
    await ask();
    const sent = await screen.findByRole('status');
    expect(sent).toHaveTextContent('If grace@example.com belongs to a member, a link valid 30 minutes is on its way.');
    expect(sent).toHaveFocus();
    expect(await requestsTo('/password-reset')[0]!.json()).toEqual({ email: 'grace@example.com' });
    expect(requestsTo('/password-reset')[0]!.headers.get('Authorization')).toBeNull();
  });

  it('asks again from the confirmation, the address kept and focused', async () => {
    answer('POST /password-reset', undefined, 202);
    show('grace@example.com');
    await ask();
    await userEvent.click(await screen.findByRole('button', { name: 'Ask again' }));
    expect(screen.getByLabelText('Email')).toHaveValue('grace@example.com');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await ask();
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(requestsTo('/password-reset')).toHaveLength(2);
  });

  it('shows that it is sending, once', async () => {
    on('POST /password-reset', () => 'pending');
    show('grace@example.com');
    await ask();
    expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    expect(requestsTo('/password-reset')).toHaveLength(1);
  });

  it("shows the API's refusal at the field, and keeps the address to correct", async () => {
    problem('POST /password-reset', 400, 'email must be an email address.');
    show('grace@example.com');
    await ask();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('email must be an email address.');
    const field = screen.getByLabelText('Email');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('email must be an email address.');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email me a link' })).toBeEnabled();
  });

  it('takes an address of 254 characters at most', async () => {
    answer('POST /password-reset', undefined, 202);
    show();
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(longest).toHaveLength(254);
    await userEvent.click(screen.getByLabelText('Email'));
    await userEvent.paste(`${longest}c`);
    expect(screen.getByLabelText('Email')).toHaveValue(longest);
    await ask();
    await screen.findByRole('status');
    expect(await requestsTo('/password-reset')[0]!.json()).toEqual({ email: longest });
  });

  it('leads back to sign-in', async () => {
    show();
    await userEvent.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    expect(await screen.findByText('The sign-in page')).toBeInTheDocument();
  });
});
