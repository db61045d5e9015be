import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { answerGet } from '../../testing/fixtures';
import { on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { ApiKeysPage } from './api-keys-page';

const show = (scopes?: ('send' | 'read' | 'keys')[]) => renderPage(<ApiKeysPage />, { path: '/api-keys', scopes });

describe('the API keys page', () => {
  it('says it is loading until the keys answer', async () => {
    on('GET /user/api-keys', () => 'pending');
    show();
    expect(await screen.findByText('Loading API keys…')).toBeInTheDocument();
  });

  it('invites the first key', async () => {
    answerGet('/user/api-keys', { apiKeys: [] });
    show();
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
  });

  it("shows the API's problem when the list fails", async () => {
    problem('GET /user/api-keys', 500, 'Internal failure.');
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed, without asking for the keys, to a key without the keys scope', async () => {
    show(['send', 'read']);
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
    expect(screen.getByText(/lacks the keys scope/)).toBeInTheDocument();
  });

  it('lists the keys by name, prefix and scopes', async () => {
    answerGet('/user/api-keys', {
      apiKeys: [
        {
          id: 'key-1',
          name: 'Billing server',
          scopes: ['send'],
          prefix: 'mr_ab12',
          createdAt: '2026-05-04T10:00:00.000Z',
          lastUsedAt: null,
        },
      ],
    });
    show();
    expect(await screen.findByRole('cell', { name: 'Billing server' })).toBeInTheDocument();
    expect(screen.getByText('mr_ab12…')).toBeInTheDocument();
    expect(screen.getByText('never')).toBeInTheDocument();
  });
});
