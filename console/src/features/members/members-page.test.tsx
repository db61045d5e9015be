import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schemas } from '../../api/client';
import { answerGet } from '../../testing/fixtures';
import { answer, on, problem, requestsTo } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { MembersPage } from './members-page';

type Options = Parameters<typeof renderPage>[1];
const show = (options: Omit<Options, 'path'> = {}) => renderPage(<MembersPage />, { path: '/members', ...options });

function aMember(overrides: Partial<Schemas['MemberResponse']> = {}): Schemas['MemberResponse'] {
  return {
    id: 'member-2',
    email: 'linus@example.com',
    name: 'Linus',
    role: 'developer',
    status: 'active',
    invitedAt: '2026-05-04T10:00:00.000Z',
    invitedBy: 'grace@example.com',
    joinedAt: '2026-05-04T11:00:00.000Z',
    lastSignInAt: null,
    ...overrides,
  };
}

describe('the Members page', () => {
  it('says it is loading until the members answer', async () => {
    on('GET /user/members', () => 'pending');
    show({ as: 'session', role: 'owner' });
    expect(await screen.findByText('Loading members…')).toBeInTheDocument();
  });

  it("shows the API's problem when the list fails", async () => {
    problem('GET /user/members', 500, 'Internal failure.');
    show({ as: 'jwt' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed, without asking, to a viewer, a developer and an API key', async () => {
    for (const options of [{ as: 'session', role: 'viewer' }, { as: 'session', role: 'developer' }, {}] as const) {
      const { unmount } = show(options);
      expect(await screen.findByText('Not allowed')).toBeInTheDocument();
      unmount();
    }
    expect(requestsTo('/user/members')).toHaveLength(0);
  });

  it('invites the first member when there is none', async () => {
    answerGet('/user/members', { members: [] });
    show({ as: 'jwt' });
    expect(await screen.findByText('No members yet')).toBeInTheDocument();
  });

  it('lists each member with role, status and last sign-in, and invites with a role', async () => {
    answerGet('/user/members', {
      members: [aMember(), aMember({ id: 'member-3', email: 'ken@example.com', status: 'invited' })],
    });
    answer(
      'POST /user/members',
      aMember({ id: 'member-4', email: 'ada@example.com', status: 'invited', role: 'viewer' }),
      201,
    );
    show({ as: 'session', role: 'admin' });
    const row = (await screen.findByText('linus@example.com')).closest('tr')!;
    expect(within(row).getByLabelText('Role of linus@example.com')).toHaveValue('developer');
    expect(within(row).getByText('never')).toBeInTheDocument();
    expect(screen.getByText('ken@example.com').closest('tr')).toHaveTextContent('invited');

    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'viewer');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Invited ada@example.com');
    expect(
      await requestsTo('/user/members')
        .find((r) => r.method === 'POST')!
        .json(),
    ).toEqual({
      email: 'ada@example.com',
      role: 'viewer',
    });
  });

  it('lets an admin neither invite an owner nor change or remove one', async () => {
    answerGet('/user/members', { members: [aMember({ role: 'owner' })] });
    show({ as: 'session', role: 'admin' });
    const row = (await screen.findByText('linus@example.com')).closest('tr')!;
    expect(within(row).getByLabelText('Role of linus@example.com')).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(within(row).getByText(/only an owner changes an owner/)).toBeInTheDocument();
    expect(within(screen.getByLabelText('Role')).getByRole('option', { name: /^owner/ })).toBeDisabled();
  });

  it('changes a role once asked to, and shows the 409 of the last owner', async () => {
    answerGet('/user/members', { members: [aMember({ role: 'owner' })] });
    problem('PATCH /user/members/member-2', 409, 'The account must keep an owner: make another member owner first.');
    show({ as: 'session', role: 'owner' });
    await userEvent.selectOptions(await screen.findByLabelText('Role of linus@example.com'), 'viewer');
    expect(requestsTo('/user/members/member-2')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Change role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('must keep an owner');
    expect(await requestsTo('/user/members/member-2')[0]!.json()).toEqual({ role: 'viewer' });
  });

  it('removes a member after asking', async () => {
    answerGet('/user/members', { members: [aMember()] });
    answer('DELETE /user/members/member-2', undefined, 204);
    show({ as: 'jwt' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('group', { name: /Remove linus@example.com\?/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(requestsTo('/user/members/member-2')).toHaveLength(1));
    expect(requestsTo('/user/members/member-2')[0]!.method).toBe('DELETE');
  });
});
