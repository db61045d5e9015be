import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anInboundMail, answerGet, inboundPage } from '../../testing/fixtures';
import { on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { InboundPage } from './inbound-page';

const show = (url = '/inbound') => renderPage(<InboundPage />, { path: '/inbound', url });
const location = () => screen.getByTestId('location').textContent;

describe('the Inbound page', () => {
  it('says it is loading until the list answers', async () => {
    on('GET /user/inbound', () => 'pending');
    show();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading inbound mail…');
  });

  it('tells how to start receiving when nothing has arrived', async () => {
    answerGet('/user/inbound', inboundPage([]));
    show();
    expect(await screen.findByText('No mail received yet')).toBeInTheDocument();
  });

  it('says no mail matches the filters of the URL, and counts them on the folded panel', async () => {
    answerGet('/user/inbound', inboundPage([]));
    show('/inbound?fromEmail=grace%40example.net&take=25');
    expect(await screen.findByText('No mail matches these filters')).toBeInTheDocument();
    // The page size is where the reader is, not a filter.
    expect(screen.getByText('Filters (1 applied)')).toBeInTheDocument();
  });

  it("shows the API's problem when the list fails", async () => {
    problem('GET /user/inbound', 500, 'Internal failure.');
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed when the credential may not read mail', async () => {
    problem('GET /user/inbound', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });

  it('lists the mail, each linking to its page, and clears the filters from page 1', async () => {
    answerGet(
      '/user/inbound',
      inboundPage([anInboundMail({ id: 'in-9', subject: '' })], { page: 2, total: 11, take: 10 }),
    );
    show('/inbound?toEmail=desk%40example.org&page=2&take=10');
    const link = await screen.findByRole('link', { name: '(no subject)' });
    expect(link).toHaveAttribute('href', '/inbound/in-9');
    expect(screen.getByText('Page 2 of 2 · 11 mails')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(location()).toBe('/inbound');
  });
});
