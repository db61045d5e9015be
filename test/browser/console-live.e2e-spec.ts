import type { Page } from 'playwright-core';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { answersFrom, appearsWithin, consoleInBrowser, newConsolePage, signIn } from '../support/console';
import { sendBody, storeMessages } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

const TIMEOUT = 2 * BROWSER_TIMEOUT;

/**
 * Waits for one more answer than now. Only a failure waits the whole minute (a list that never
 * refreshes); a refresh every 5 s comes well within it even on a machine at a load of 10.
 */
async function refreshed(answered: () => number, what: string): Promise<void> {
  const from = answered();
  const deadline = Date.now() + 60_000;
  while (answered() === from) {
    if (Date.now() > deadline) throw new Error(`no refresh in a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the browser tells a page when its tab goes to the background or comes back. */
const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate(`(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${state === 'hidden'} });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);

/** Records, in the page, whether a loading state ever showed from now on (a live refresh must not blank the list). */
const watchForLoading = (page: Page) =>
  page.evaluate(`(() => {
    window.sawLoading = false;
    new MutationObserver(() => {
      if (document.querySelector('.state-loading')) window.sawLoading = true;
    }).observe(document.body, { childList: true, subtree: true });
  })()`);

/** docs/architecture.md#the-console: lists show what arrives without a reload, while visible, keeping the reader's place. */
describeInBrowser('Console live lists browser tests')(
  'the console: live lists (docs/architecture.md#the-console)',
  () => {
    const { t, served } = consoleInBrowser();

    it(
      'shows a message sent after the page loaded, keeping the filters, the page size, the scroll and the focus',
      async () => {
        const userId = newUserId();
        const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
        await storeMessages(
          t.db,
          userId,
          Array.from({ length: 30 }, (_, i) => ({ subject: `Order ${i} shipped`, sentAt: at(i + 1) })),
        );
        const { context, page } = await newConsolePage(served.browser);
        const listed = answersFrom(page, '/user/messages');
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/messages?q=order&take=25');
        await page.getByText('Page 1 of 2 · 30 messages').waitFor();
        await watchForLoading(page);
        const next = page.getByRole('button', { name: 'Next →' });
        await next.focus();
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
        const scrolled = await page.evaluate<number>('window.scrollY');
        expect(scrolled).toBeGreaterThan(0);

        await t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ subject: 'Order 99 is new' }))
          .expect(201);
        await appearsWithin(page.getByRole('link', { name: 'Order 99 is new' }), listed);

        await page.getByText('Page 1 of 2 · 31 messages').waitFor();
        expect(new URL(page.url()).search).toBe('?q=order&take=25');
        expect(await page.evaluate<number>('window.scrollY')).toBe(scrolled);
        expect(await next.evaluate((button) => button.ownerDocument.activeElement === button)).toBe(true);
        expect(await page.evaluate('window.sawLoading')).toBe(false);
        await context.close();
      },
      TIMEOUT,
    );

    it(
      'shows a new webhook delivery on the Webhooks page without a reload',
      async () => {
        const userId = newUserId();
        const { context, page } = await newConsolePage(served.browser);
        const listed = answersFrom(page, '/user/webhook-deliveries');
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
        await page.getByText('No webhook deliveries yet').waitFor();

        // Nothing is attempted here (no worker): the event waits as a pending delivery, and shows.
        await t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ webhook: { url: 'https://hooks.example.com/mail' } }))
          .expect(201);
        await appearsWithin(page.getByRole('row', { name: /message\.queued/ }), listed);
        await context.close();
      },
      TIMEOUT,
    );

    it(
      'does not refresh a hidden page, and refreshes it again once it is visible',
      async () => {
        const userId = newUserId();
        const { context, page: hidden } = await newConsolePage(served.browser);
        const hiddenAsked = answersFrom(hidden, '/user/messages');
        await signIn(hidden, served.baseUrl, tokenFor(userId));
        await hidden.getByText('No messages yet').waitFor();
        // First the real signal that this page refreshes by itself at all; hidden right after a
        // refresh came back, the next one is a whole interval away.
        await refreshed(hiddenAsked, 'the visible page refreshing');
        await setVisibility(hidden, 'hidden');
        const whenHidden = hiddenAsked();

        // The signal that time enough passed: another page of the console, visible, refreshed twice.
        const visible = await context.newPage();
        const visibleAsked = answersFrom(visible, '/user/messages');
        await signIn(visible, served.baseUrl, tokenFor(userId));
        await visible.getByText('No messages yet').waitFor();
        await refreshed(visibleAsked, 'the other page refreshing');
        await refreshed(visibleAsked, 'the other page refreshing again');
        expect(hiddenAsked()).toBe(whenHidden);

        await setVisibility(hidden, 'visible');
        await refreshed(hiddenAsked, 'the page refreshing once visible again');
        await context.close();
      },
      TIMEOUT,
    );
  },
);
