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

  describe('Delivery by domain', () => {
    const AT = '2026-05-04T10:00:00.000Z';
    const LATER = '2026-05-04T10:05:00.000Z';
    const fate = (email: string, status: 'sent' | 'deferred' | 'pending' | 'failed', route: Route | null, at = AT) => ({
      email,
      type: 'to' as const,
      status,
      detail: status === 'pending' ? null : '250 2.0.0 OK',
      at,
      route,
    });
    type Route = { host: string; tls: boolean };
    const longHost = 'mx-eu-west-1.inbound-relay.very-long-subdomain.example-mail-provider.example.net';
    const rowOf = (domain: string) => {
      const section = screen.getByRole('region', { name: 'Delivery by domain' });
      return within(section)
        .getAllByRole('row')
        .find((row) => within(row).queryAllByRole('cell')[0]?.textContent === domain)!;
    };
    const cells = (domain: string) =>
      within(rowOf(domain))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);

    it('names, per recipient domain, the server that answered, whether over TLS, and how its recipients stand', async () => {
      answer(
        'GET /user/messages/msg-1',
        aMessage({
          to: ['ada@example.com', 'Bob@Example.com', 'cy@example.org', 'di@example.net'],
          recipients: [
            fate('ada@example.com', 'sent', { host: 'mx.example.com', tls: true }),
            fate('Bob@Example.com', 'deferred', { host: 'mx.example.com', tls: true }),
            fate('cy@example.org', 'sent', { host: longHost, tls: false }),
            fate('di@example.net', 'pending', null),
          ],
        }),
      );
      answerTheRest();
      show();
      const section = await screen.findByRole('region', { name: 'Delivery by domain' });
      expect(within(section).getByRole('heading', { level: 3 })).toHaveTextContent('Delivery by domain');
      expect(
        within(section)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual(['Domain', 'Answered by', 'TLS', 'Recipients']);
      // The domain is read case-insensitively: Bob's is example.com's row.
      expect(cells('example.com')).toEqual(['example.com', 'mx.example.com', 'Yes', '2: 1 sent, 1 deferred']);
      expect(cells('example.org')).toEqual(['example.org', longHost, 'No, not encrypted', '1 sent']);
      expect(cells('example.net')).toEqual(['example.net', '— no server reached yet', '—', '1 pending']);
      // The long host breaks between its labels (components/host-name.tsx); the state in clear is a warning in words.
      const [, answeredBy] = within(rowOf('example.org')).getAllByRole('cell');
      expect(answeredBy!.querySelectorAll('wbr')).toHaveLength(5);
      expect(within(rowOf('example.org')).getByText('No, not encrypted')).toHaveClass('tls-no');
    });

    it('lists each server a domain’s recipients reached, the latest first, and says which was in clear', async () => {
      answer(
        'GET /user/messages/msg-1',
        aMessage({
          to: ['ada@example.com', 'bob@example.com'],
          recipients: [
            fate('ada@example.com', 'sent', { host: 'mx1.example.com', tls: true }),
            fate('bob@example.com', 'sent', { host: 'mx2.example.com', tls: false }, LATER),
          ],
        }),
      );
      answerTheRest();
      show();
      await screen.findByRole('region', { name: 'Delivery by domain' });
      expect(cells('example.com')).toEqual([
        'example.com',
        'mx2.example.commx1.example.com',
        'Partly: not encrypted to mx2.example.com',
        '2 sent',
      ]);
    });

    it('is not shown when no recipient reached a reported server (a relay, the outbox)', async () => {
      answer(
        'GET /user/messages/msg-1',
        aMessage({ recipients: [fate('ada@example.com', 'sent', null), fate('bob@example.org', 'failed', null)] }),
      );
      answerTheRest();
      show();
      const recipients = await screen.findByRole('region', { name: 'Recipients' });
      expect(within(recipients).getAllByRole('row')).toHaveLength(3);
      expect(screen.queryByRole('region', { name: 'Delivery by domain' })).toBeNull();
      expect(screen.queryByText('Answered by')).toBeNull();
    });
  });
});
