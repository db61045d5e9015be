import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newConsolePage,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { MessageLifecycle } from '../../src/messages/lifecycle/message-lifecycle.repository';
import { storeMessage } from '../support/factories';
import { newUserId, tokenFor } from '../support/tokens';

/** docs/architecture.md#the-console's pages in the navigation (the Message page opens from Messages). */
const NAVIGATION = [
  'Overview',
  'Messages',
  'Inbound',
  'Domains',
  'Suppressions',
  'Webhooks',
  'API keys',
  'Members',
  'Audit log',
];
const NARROW = 375;

/** Issue 27: the Message page answers "what happened and why", and the navigation fits 375 px. */
describeInBrowser('Console message page browser tests')('the console: Message page and narrow navigation', () => {
  const { t, served } = consoleInBrowser();

  it(
    'shows when a deferred message is tried next, and how far off that is',
    async () => {
      const userId = newUserId();
      const message = await storeMessage(t.db, userId, { subject: 'Greylisted one', status: 'deferred' });
      // TypeORM answers an UPDATE … RETURNING with [rows, count].
      const [[{ next }]] = await t.db.query(
        `UPDATE messages SET next_attempt_at = date_trunc('milliseconds', now()) + interval '5 minutes'
         WHERE id = $1 RETURNING next_attempt_at AS next`,
        [message.id],
      );
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${message.id}`);

      const timeline = page.getByRole('region', { name: 'Timeline' });
      const note = timeline.getByText(/Next attempt at/);
      await note.waitFor();
      expect(await note.innerText()).toMatch(/Next attempt at .+ \(in 5 min\)\.$/);
      expect(await note.locator('time').last().getAttribute('datetime')).toBe((next as Date).toISOString());
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, 'message-deferred');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'shows Cancel disabled with the reason where docs/delivery-and-deliverability.md#statuses does not allow it',
    async () => {
      const userId = newUserId();
      const message = await storeMessage(t.db, userId, { subject: 'Delivered one', status: 'sent' });
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${message.id}`);

      const cancel = page.getByRole('button', { name: 'Cancel' });
      await cancel.waitFor();
      expect(await cancel.isDisabled()).toBe(true);
      const reason = 'Cannot cancel: this message is sent; only a scheduled, queued or deferred message can be.';
      await page.getByText(reason).waitFor();
      // The reason is the button's description, for a screen reader on the button itself.
      const describedBy = (await cancel.getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(reason);
      expect(await page.getByText('Next attempt at').count()).toBe(0);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'asks before canceling a partly delivered message, naming who already has it and how many will not get it',
    async () => {
      const userId = newUserId();
      const to = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'];
      const message = await storeMessage(t.db, userId, { subject: 'Half there', recipients: to, status: 'deferred' });
      // Two accepted by the relay, two refused for now: as a delivery's first attempt leaves them.
      await t.db.query(
        `UPDATE messages SET recipient_fates = (
           SELECT jsonb_agg(f.v || jsonb_build_object('status', CASE WHEN f.i <= 2 THEN 'sent' ELSE 'deferred' END) ORDER BY f.i)
           FROM jsonb_array_elements(recipient_fates) WITH ORDINALITY f(v, i))
         WHERE id = $1`,
        [message.id],
      );
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${message.id}`);

      await page.getByRole('button', { name: 'Cancel' }).click();
      const question =
        'Cancel this message? Already delivered to a@example.com, b@example.com; the other 2 recipients will not get it.';
      await page.getByText(question).waitFor();
      expect(await page.getByText('It will not be sent').count()).toBe(0);
      await page.getByRole('button', { name: 'Yes, cancel' }).click();
      const recipients = page.getByRole('region', { name: 'Recipients' });
      await recipients.getByText('canceled', { exact: true }).first().waitFor();
      expect(await recipients.getByText('canceled', { exact: true }).count()).toBe(2);
      expect(await recipients.getByText('sent', { exact: true }).count()).toBe(2);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'shows, per recipient domain of a message delivered directly, the server that answered and whether over TLS, at 1280 and at 375 px',
    async () => {
      const userId = newUserId();
      const to = ['ada@alpha.example', 'bob@alpha.example', 'cy@beta.example'];
      const message = await storeMessage(t.db, userId, { subject: 'Two domains', recipients: to });
      // What a direct delivery's attempt writes (DirectMailer's outcome through the lifecycle): each
      // recipient's fate with the MX host its transaction reached and whether STARTTLS protected it.
      const longHost = 'mx-eu-west-1.inbound-relay.very-long-subdomain.beta-mail-provider.example';
      const alpha = { host: 'mx.alpha.example', tls: true };
      const beta = { host: longHost, tls: false };
      const lifecycle = t.app.get(MessageLifecycle);
      await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: message.id, attempt: 1 }], {}));
      await t.db.transaction((m) =>
        lifecycle.finish(m, [
          {
            messageId: message.id,
            attempt: 1,
            status: 'deferred',
            detail: '250 2.0.0 Ok (mx.alpha.example, TLS); 451 4.7.1 Try later (mx-eu-west-1…, no TLS)',
            retryAfterSeconds: 600,
            fates: [
              { position: 0, key: to[0], status: 'sent', detail: '250 2.0.0 Ok', route: alpha },
              { position: 1, key: to[1], status: 'sent', detail: '250 2.0.0 Ok', route: alpha },
              { position: 2, key: to[2], status: 'deferred', detail: '451 4.7.1 Try later', route: beta },
            ],
          },
        ]),
      );
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${message.id}`);

      const section = page.getByRole('region', { name: 'Delivery by domain' });
      await section.waitFor();
      const rows = () =>
        section
          .locator('tbody tr')
          .evaluateAll((trs) =>
            trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
          );
      expect(await rows()).toEqual([
        ['alpha.example', 'mx.alpha.example', 'Yes', '2 sent'],
        ['beta.example', longHost, 'No, not encrypted', '1 deferred'],
      ]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, 'message-delivery-by-domain');

      await page.setViewportSize({ width: NARROW, height: 900 });
      // A string, evaluated in the page: the test's tsconfig has no `document`.
      await page.waitForFunction(`document.documentElement.clientWidth === ${NARROW}`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(NARROW);
      // The long host stays in its card: it wrapped onto more lines, between its labels (each an inline box of its own).
      const host = section.locator('td[data-label="Answered by"] code').last();
      const lineTops = () =>
        host.evaluate((code) => [...code.children].map((label) => [...label.getClientRects()].map((rect) => rect.top)));
      const tops = await lineTops();
      expect(tops.every((label) => new Set(label).size === 1)).toBe(true);
      expect(new Set(tops.flat()).size).toBeGreaterThan(1);
      const sectionBox = (await section.boundingBox())!;
      const hostBox = (await host.boundingBox())!;
      expect(hostBox.x + hostBox.width).toBeLessThanOrEqual(sectionBox.x + sectionBox.width);
      expect(await section.getByText('No, not encrypted').isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, 'message-delivery-by-domain-375');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    `reaches every one of the ${NAVIGATION.length} navigation items by keyboard at ${NARROW} px, each in full view`,
    async () => {
      const userId = newUserId();
      const { context, page } = await newConsolePage(served.browser, NARROW);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/overview');
      const nav = page.getByRole('navigation', { name: 'Console' });
      const labels = await nav.getByRole('link').allInnerTexts();
      expect(labels).toEqual(NAVIGATION);

      // From the top of the page: the skip link, then each item in turn.
      const focused = page.locator(':focus');
      await page.locator('body').focus();
      await page.keyboard.press('Tab');
      expect(await focused.innerText()).toBe('Skip to content');
      for (const label of labels) {
        await page.keyboard.press('Tab');
        expect(await focused.innerText()).toBe(label);
        const box = (await focused.boundingBox())!;
        // Its focus ring (3 px, 2 px off) in view too: nothing clips it, nothing scrolls it away.
        expect(box.x).toBeGreaterThanOrEqual(5);
        expect(box.x + box.width).toBeLessThanOrEqual(NARROW - 5);
        expect(box.y).toBeGreaterThanOrEqual(5);
        expect(box.y + box.height).toBeLessThanOrEqual(900);
      }
      const clipped = await page.evaluate<boolean>(
        `(() => { const nav = document.querySelector('nav[aria-label="Console"]'); return nav.scrollWidth > nav.clientWidth; })()`,
      );
      expect(clipped).toBe(false);
      expect(await pageWidth(page)).toBeLessThanOrEqual(NARROW);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, 'navigation-375');

      // Enter on a real item goes there.
      await nav.getByRole('link', { name: 'Messages' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/console\/messages$/);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
