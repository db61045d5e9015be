import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { session } from '../../api/session';
import { answer, problem, requestsTo } from '../../testing/mock-api';
import { aMemberSession } from '../../testing/render-page';
import { InvitationPage } from './invitation-page';

const TOKEN = 'a'.repeat(43);

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/invitation/${TOKEN}`]}>
        <Routes>
          <Route path="/invitation/:token" element={<InvitationPage />} />
          <Route path="/" element={<p>The start of the console</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('the invitation page', () => {
  it('asks for 12 characters at least before sending anything', async () => {
    show();
    await userEvent.type(screen.getByLabelText('Password'), 'too short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('at least 12 characters');
    expect(requestsTo(`/invitations/${TOKEN}/accept`)).toHaveLength(0);
  });

  it('accepts with the password and name, signs in with the cookie and lands on the start of the console', async () => {
    answer(`POST /invitations/${TOKEN}/accept`, aMemberSession('developer'));
    answer('GET /user/me', {
      userId: 'user-1',
      credential: 'session',
      scopes: ['send', 'read', 'keys'],
      apiKeyId: null,
    });
    show();
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery staple');
    await userEvent.type(screen.getByLabelText('Name (optional)'), 'Grace Hopper');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByText('The start of the console')).toBeInTheDocument();
    expect(session.get().mode).toBe('cookie');
    expect(await requestsTo(`/invitations/${TOKEN}/accept`)[0]!.json()).toEqual({
      password: 'correct horse battery staple',
      name: 'Grace Hopper',
    });
  });

  it('says a used, expired or withdrawn invitation is no more', async () => {
    problem(`POST /invitations/${TOKEN}/accept`, 404, 'No such invitation.');
    show();
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery staple');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation was used, has expired or was withdrawn',
    );
  });
});
