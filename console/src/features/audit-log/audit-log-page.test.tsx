import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schemas } from '../../api/client';
import { answerGet, paging } from '../../testing/fixtures';
import { on, problem, requestsTo } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { AuditLogPage } from './audit-log-page';

type Options = Parameters<typeof renderPage>[1];
const show = (options: Omit<Options, 'path'> = {}) => renderPage(<AuditLogPage />, { path: '/audit-log', ...options });

const anEntry: Schemas['AuditLogEntryResponse'] = {
  id: 'entry-1',
  at: '2026-05-04T10:00:00.000Z',
  actor: { type: 'member', id: 'member-1', label: 'grace@example.com' },
  action: 'member.signed_in',
  target: { type: 'member', id: 'member-1' },
  clientAddress: '203.0.113.7',
  detail: {},
};

const aPage = (entries: Schemas['AuditLogEntryResponse'][], actor: string | null = null) => ({
  entries,
  ...paging(entries.length),
  actor,
  action: null,
});

describe('the Audit log page', () => {
  it('says it is loading until the log answers', async () => {
    on('GET /user/audit-log', () => 'pending');
    show({ as: 'jwt' });
    expect(await screen.findByText('Loading the audit log…')).toBeInTheDocument();
  });

  it("shows the API's problem when the log fails", async () => {
    problem('GET /user/audit-log', 500, 'Internal failure.');
    show({ as: 'session', role: 'owner' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed, without asking, to a viewer, a developer and a key without keys', async () => {
    for (const options of [
      { as: 'session', role: 'viewer' },
      { as: 'session', role: 'developer' },
      { scopes: ['send', 'read'] },
    ] as const) {
      const { unmount } = show(options);
      expect(await screen.findByText('Not allowed')).toBeInTheDocument();
      unmount();
    }
    expect(requestsTo('/user/audit-log')).toHaveLength(0);
  });

  it('says so when nothing was recorded yet', async () => {
    answerGet('/user/audit-log', aPage([]));
    show({ as: 'jwt' });
    expect(await screen.findByText('No changes yet')).toBeInTheDocument();
  });

  it('lists entries with actor, action and address, and filters by an actor from the URL', async () => {
    answerGet('/user/audit-log', aPage([anEntry]));
    show({ as: 'session', role: 'admin' });
    expect(await screen.findByRole('cell', { name: '203.0.113.7' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'member.signed_in' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Changes by grace@example.com (member)' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/audit-log?actor=member-1');
    await waitFor(() => expect(requestsTo('/user/audit-log').at(-1)!.url).toContain('actor=member-1'));
  });

  it('applies the action filter into the URL, from page 1', async () => {
    answerGet('/user/audit-log', aPage([anEntry]));
    renderPage(<AuditLogPage />, { path: '/audit-log', url: '/audit-log?page=2', as: 'jwt' });
    await screen.findByRole('cell', { name: 'member.signed_in' });
    await userEvent.click(screen.getByText('Filters'));
    await userEvent.selectOptions(screen.getByLabelText('Action'), 'api_key.created');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/audit-log?action=api_key.created');
  });
});
