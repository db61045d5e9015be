import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aMessage, answerGet, messagesPage } from '../../testing/fixtures';
import { on, problem, requestsTo } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { MessagesPage } from './messages-page';

const show = (url = '/messages') => renderPage(<MessagesPage />, { path: '/messages', url });
const location = () => screen.getByTestId('location').textContent;

describe('the Messages page', () => {
  it('says it is loading until the list answers', async () => {
    on('GET /user/messages', () => 'pending');
    show();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading messages…');
  });

  it('tells a new account how to send its first message', async () => {
    answerGet('/user/messages', messagesPage([]));
    show();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    expect(screen.getByText('POST /sender/send')).toBeInTheDocument();
  });

  it('says no message matches when the URL filters find none, naming the search', async () => {
    answerGet('/user/messages', messagesPage([]));
    show('/messages?q=invoice&statuses=failed');
    expect(await screen.findByText('No message matches “invoice”')).toBeInTheDocument();
    // The URL's filters are what the API is asked for.
    const query = new URL(requestsTo('/user/messages')[0]!.url).searchParams;
    expect(query.get('q')).toBe('invoice');
    expect(query.get('statuses')).toBe('failed');
  });

  it('offers the first page when the URL names a page past the end', async () => {
    answerGet('/user/messages', messagesPage([], { page: 9, total: 3 }));
    show('/messages?page=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Go to the first page' }));
    expect(location()).toBe('/messages');
  });

  it("shows the API's problem and a retry when the list fails", async () => {
    problem('GET /user/messages', 503, 'The database is not answering.');
    show();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveTextContent('The database is not answering.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('says a bad filter in the URL is the filters’ fault, without a retry', async () => {
    problem('GET /user/messages', 400, 'startDate must be a date.');
    show('/messages?startDate=yesterday');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Check the filters');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says not allowed when the credential may not read messages', async () => {
    problem('GET /user/messages', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
    expect(screen.getByText('This API key lacks the read scope.')).toBeInTheDocument();
  });

  it('lists the messages with links to each, and pages through the URL', async () => {
    answerGet(
      '/user/messages',
      messagesPage([aMessage({ id: 'msg-7', subject: 'Order 7 shipped', status: 'deferred' })], { total: 11 }),
    );
    show();
    const link = await screen.findByRole('link', { name: 'Order 7 shipped' });
    expect(link).toHaveAttribute('href', '/messages/msg-7');
    expect(within(screen.getByRole('table')).getByText('deferred')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2 · 11 messages')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next →' }));
    expect(location()).toBe('/messages?page=2');
  });

  it('applies the search from page 1, keeping the other filters in the URL', async () => {
    answerGet('/user/messages', messagesPage([aMessage()], { total: 30, page: 3 }));
    show('/messages?statuses=sent&page=3');
    await userEvent.type(await screen.findByRole('searchbox'), 'receipt');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(location()).toBe('/messages?statuses=sent&q=receipt');
  });
});
