import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { answerGet, paging } from '../../testing/fixtures';
import { on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { SuppressionsPage } from './suppressions-page';

const show = (url = '/suppressions') => renderPage(<SuppressionsPage />, { path: '/suppressions', url });

describe('the Suppressions page', () => {
  it('says it is loading until the list answers', async () => {
    on('GET /user/suppressions', () => 'pending');
    show();
    expect(await screen.findByText('Loading suppressions…')).toBeInTheDocument();
  });

  it('says an address searched for is not suppressed', async () => {
    answerGet('/user/suppressions', { ...paging(0), suppressions: [] });
    show('/suppressions?email=ada%40example.com');
    expect(await screen.findByText('ada@example.com is not suppressed')).toBeInTheDocument();
  });

  it('says a search the API refuses is the search’s fault', async () => {
    problem('GET /user/suppressions', 400, 'email must be an email.');
    show('/suppressions?email=ada');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Check the search');
    expect(alert).toHaveTextContent('email must be an email.');
  });

  it('says not allowed when the credential may not read the list', async () => {
    problem('GET /user/suppressions', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });

  it('lists the suppressed addresses with what caused each', async () => {
    answerGet('/user/suppressions', {
      ...paging(1),
      suppressions: [
        {
          email: 'gone@example.com',
          reason: 'hard_bounce',
          scope: 'all',
          messageId: 'msg-3',
          createdAt: '2026-05-04T10:00:00.000Z',
        },
      ],
    });
    show();
    expect(await screen.findByText('hard bounce')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Message that suppressed gone@example.com' })).toHaveAttribute(
      'href',
      '/messages/msg-3',
    );
  });
});
