// The unsubscribe pages in a real browser (Debian's Chromium through playwright-core): read by
// their accessible roles, opened without changing anything, the button unsubscribing, and its
// answer's button undoing that. (No axe-core here: it is not installed.)
import { ConsoleMessage, Page } from 'playwright-core';
import { appInBrowser, BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { newUserId } from '../support/tokens';
import { bulkMessage, suppressionsOf, unsubscribeTokens } from '../support/unsubscribe/unsubscribe-support';

describeInBrowser('Unsubscribe page browser tests')(
  'the unsubscribe pages in a browser (docs/delivery-and-deliverability.md)',
  () => {
    const { t, served } = appInBrowser();

    /** A page of a context of its own, and what the browser complained of on it (a CSP refusal is one). */
    const open = async (path: string): Promise<{ page: Page; complaints: string[]; status: number | undefined }> => {
      const page = await (await served.browser.newContext()).newPage();
      page.setDefaultTimeout(15_000);
      const complaints: string[] = [];
      page.on(
        'console',
        (message: ConsoleMessage) => void (message.type() !== 'log' && complaints.push(message.text())),
      );
      page.on('pageerror', (error) => complaints.push(error.message));
      const response = await page.goto(`${served.baseUrl}${path}`, { waitUntil: 'load' });
      return { page, complaints, status: response?.status() };
    };

    it(
      'shows an accessible confirmation that changes nothing, and unsubscribes when its button is pressed',
      async () => {
        const userId = newUserId('unsub-browser');
        const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });
        const token = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({
          messageId: message.id,
          recipient: 0,
        });

        const { page, complaints, status } = await open(`/unsubscribe/${token}`);

        expect(status).toBe(200);
        expect(await page.locator('html').getAttribute('lang')).toBe('en');
        expect(await page.title()).toBe('Unsubscribe');
        expect(await page.getByRole('main').ariaSnapshot()).toBe(
          [
            '- main:',
            '  - heading "Unsubscribe" [level=1]',
            '  - paragraph:',
            '    - text: Stop bulk email from',
            '    - strong: billing@example.com',
            '    - text: to',
            '    - strong: a…@example.com',
            '    - text: "?"',
            // docs/delivery-and-deliverability.md: an unsubscribe stops bulk mail only; the page says what still comes.
            '  - paragraph: Only newsletters and other bulk mail stop. Mail about your own account or orders, such as receipts and password resets, still arrives.',
            '  - button "Unsubscribe"',
          ].join('\n'),
        );
        // The page's style, allowed by its hash in the CSP, applied; nothing refused.
        expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('576px');
        expect(complaints).toEqual([]);
        // The page has loaded in full: whatever opening it would do is done.
        expect(await suppressionsOf(t.http, userId)).toEqual([]);

        await page.getByRole('button', { name: 'Unsubscribe' }).click();

        await page.getByRole('heading', { level: 1, name: 'You are unsubscribed' }).waitFor();
        expect(await page.getByRole('main').innerText()).toContain(
          'billing@example.com no longer sends bulk email to a…@example.com.',
        );
        expect(await suppressionsOf(t.http, userId)).toEqual([
          {
            email: 'ada@example.com',
            reason: 'unsubscribe',
            scope: 'bulk',
            messageId: message.id,
            createdAt: expect.any(String),
          },
        ]);
        expect(complaints).toEqual([]);
      },
      BROWSER_TIMEOUT,
    );

    it(
      'undoes the unsubscribe with the button of its answer, and unsubscribes again from the page that answers the undo',
      async () => {
        const userId = newUserId('unsub-browser-undo');
        const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });
        const token = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({
          messageId: message.id,
          recipient: 0,
        });
        const { page, complaints } = await open(`/unsubscribe/${token}`);
        await page.getByRole('button', { name: 'Unsubscribe' }).click();
        await page.getByRole('heading', { level: 1, name: 'You are unsubscribed' }).waitFor();
        expect(await suppressionsOf(t.http, userId)).toHaveLength(1);

        await page.getByRole('button', { name: 'Undo' }).click();

        await page.getByRole('heading', { level: 1, name: 'You are subscribed again' }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/unsubscribe/${token}/resubscribe`);
        expect(await page.getByRole('main').ariaSnapshot()).toBe(
          [
            '- main:',
            '  - heading "You are subscribed again" [level=1]',
            '  - paragraph:',
            '    - strong: billing@example.com',
            '    - text: may send bulk email to',
            '    - strong: a…@example.com',
            '    - text: again.',
            '  - button "Unsubscribe"',
          ].join('\n'),
        );
        expect(await suppressionsOf(t.http, userId)).toEqual([]);

        await page.getByRole('button', { name: 'Unsubscribe' }).click();

        await page.getByRole('heading', { level: 1, name: 'You are unsubscribed' }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/unsubscribe/${token}`);
        expect(await suppressionsOf(t.http, userId)).toEqual([
          {
            email: 'ada@example.com',
            reason: 'unsubscribe',
            scope: 'bulk',
            messageId: message.id,
            createdAt: expect.any(String),
          },
        ]);
        // The strict CSP held on every page (its style allowed, no form refused).
        expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('576px');
        expect(complaints).toEqual([]);
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a page saying the link is not valid for an altered token, with no button',
      async () => {
        const userId = newUserId('unsub-browser-forged');
        const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });
        const token = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({
          messageId: message.id,
          recipient: 0,
        });

        const { page, status } = await open(`/unsubscribe/${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`);

        expect(status).toBe(404);
        await page.getByRole('heading', { level: 1, name: 'This unsubscribe link is not valid' }).waitFor();
        expect(await page.getByRole('button').count()).toBe(0);
        expect(await suppressionsOf(t.http, userId)).toEqual([]);
      },
      BROWSER_TIMEOUT,
    );

    it(
      'cannot be framed by another page',
      async () => {
        const userId = newUserId('unsub-browser-framed');
        const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });
        const token = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({
          messageId: message.id,
          recipient: 0,
        });
        const { page } = await open('/health');

        // A frame on another origin (127.0.0.1 against localhost) that the browser must leave empty.
        const framed = `${served.baseUrl.replace('127.0.0.1', 'localhost')}/unsubscribe/${token}`;
        const blocked = page.waitForEvent('console', (message) =>
          /frame-ancestors|Refused to (display|frame)/i.test(message.text()),
        );
        await page.setContent(`<iframe src="${framed}"></iframe>`);

        await blocked;
        expect(await page.frames()[1]?.locator('button').count()).toBe(0);
      },
      BROWSER_TIMEOUT,
    );
  },
);
