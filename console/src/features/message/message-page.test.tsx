import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { aMessage, answerGet, deliveriesPage } from '../../testing/fixtures';
import { answer, on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { MessagePage } from './message-page';

const show = (scopes?: ('send' | 'read' | 'keys')[]) =>
  renderPage(<MessagePage />, { path: '/messages/:id', url: '/messages/msg-1', scopes });

/** The message's content and its webhook deliveries, which its page asks for once the message is shown. */
function answerTheRest() {
  answer('GET /user/messages/msg-1/content', { html: null, text: 'Hello', headers: {}, attachments: [] });
  answerGet('/user/webhook-deliveries', deliveriesPage([]));
}

describe('the Message page', () => {
  it('says it is loading until the message answers', async () => {
    on('GET /user/messages/msg-1', () => 'pending');
    show();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the message…');
  });

  it('says not found, with the way back to Messages', async () => {
    problem('GET /user/messages/msg-1', 404, 'No message msg-1.');
    show();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not found');
    expect(within(alert).getByRole('link', { name: 'Back to Messages' })).toHaveAttribute('href', '/messages');
  });

  it('says not allowed when the credential may not read it', async () => {
    problem('GET /user/messages/msg-1', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });

  it('shows the message with its recipients, content and an empty webhook list', async () => {
    answer('GET /user/messages/msg-1', aMessage({ subject: 'Your invoice' }));
    answerTheRest();
    show();
    expect(await screen.findByRole('heading', { name: 'Your invoice', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Recipients' })).toHaveTextContent('250 2.0.0 OK');
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    expect(await screen.findByText('No webhook events')).toBeInTheDocument();
  });

  it('says why a sent message cannot be canceled', async () => {
    answer('GET /user/messages/msg-1', aMessage({ status: 'sent' }));
    answerTheRest();
    show();
    expect(await screen.findByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByText(/Cannot cancel: this message is sent/)).toBeInTheDocument();
  });
});
