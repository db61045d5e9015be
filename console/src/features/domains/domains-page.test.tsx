import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { answerGet } from '../../testing/fixtures';
import { on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { DomainsPage } from './domains-page';

const show = (scopes?: ('send' | 'read' | 'keys')[]) => renderPage(<DomainsPage />, { path: '/domains', scopes });

describe('the Domains page', () => {
  it('says it is loading until the domains answer', async () => {
    on('GET /domains', () => 'pending');
    show();
    expect(await screen.findByText('Loading domains…')).toBeInTheDocument();
  });

  it('invites the first domain', async () => {
    answerGet('/domains', { domains: [] });
    show();
    expect(await screen.findByText('No domains yet')).toBeInTheDocument();
  });

  it("shows the API's problem when the list fails", async () => {
    problem('GET /domains', 500, 'Internal failure.');
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed when the credential may not read domains', async () => {
    problem('GET /domains', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });

  it('turns adding off, saying why, for a key without the send scope', async () => {
    answerGet('/domains', { domains: [] });
    show(['read']);
    expect(await screen.findByRole('button', { name: 'Add domain' })).toBeDisabled();
    expect(screen.getByLabelText('Domain')).toBeDisabled();
    expect(screen.getByText(/lacks the send scope/)).toBeInTheDocument();
  });
});
