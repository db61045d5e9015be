import type { Locator, Page } from 'playwright-core';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newConsolePage,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { storeMessage, storeMessages } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** Tabs from the top of the page until `target` has the focus; fails past `most`. */
async function tabsTo(page: Page, target: Locator, most: number): Promise<number> {
  await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
  for (let tabs = 1; tabs <= most; tabs++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element.ownerDocument.activeElement === element)) return tabs;
  }
  throw new Error(`not reached in ${most} Tabs: ${String(target)}`);
}

/**
 * The places where a line of `cells`' text breaks, each as the text around it ("ab|cd"): a new
 * line starts where a character's box is lower than the one before it.
 */
const lineBreaks = (cells: Locator) =>
  cells.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const doc = element.ownerDocument;
      const walker = doc.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
      const chars: { char: string; top: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = doc.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ char: node.textContent![i], top: rect.top });
        }
      }
      return chars.flatMap(({ top }, i) =>
        i > 0 && top > chars[i - 1].top + 2
          ? [
              `${chars
                .slice(Math.max(0, i - 3), i)
                .map((c) => c.char)
                .join('')}|${chars
                .slice(i, i + 3)
                .map((c) => c.char)
                .join('')}`,
            ]
          : [],
      );
    }),
  );

/** Issue 33's polish: what a newcomer's hour found on the console. */
describeInBrowser('Console polish browser tests')('the console: polish (issue 33)', () => {
  const { t, served } = consoleInBrowser();

  it(
    'searches subjects and recipients from a box above the folded filters, a few Tabs from the first message',
    async () => {
      const userId = newUserId();
      await storeMessage(t.db, userId, { subject: 'Your invoice', recipients: ['grace@example.com'] });
      await storeMessage(t.db, userId, { subject: 'Welcome aboard', recipients: ['Ada Lovelace <ada@example.com>'] });
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId));
      const first = page.locator('tbody tr').first().getByRole('link').first();
      await first.waitFor();

      // Folded filters (issue 33 counted 35 Tabs): the skip link, the navigation, Sign out, the search
      // field and its button, the filters' summary, then the first message.
      expect(await page.locator('details.filters').getAttribute('open')).toBeNull();
      expect(await tabsTo(page, first, 16)).toBeLessThanOrEqual(16);

      const search = page.getByRole('searchbox', { name: 'Search subjects and recipients' });
      await search.fill('lovelace');
      await search.press('Enter');
      await page.getByText('Page 1 of 1 · 1 message').waitFor();
      expect(await page.locator('tbody tr td:first-child a').allInnerTexts()).toEqual(['Welcome aboard']);
      expect(new URL(page.url()).search).toBe('?q=lovelace');
      await search.fill('nothing like it');
      await search.press('Enter');
      await page.getByText('No message matches “nothing like it”').waitFor();

      // A URL with filters opens them: what is applied shows.
      await page.goto(`${served.baseUrl}/console/messages?statuses=queued`);
      await page.getByText('Filters (1 applied)').waitFor();
      expect(await page.locator('details.filters').getAttribute('open')).toBe('');
      expect(await page.getByLabel('queued', { exact: true }).isChecked()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'says a network failure in a sentence, not "Failed to fetch"',
    async () => {
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(newUserId()), '/console/domains');
      await page.getByRole('heading', { name: 'Domains' }).waitFor();
      const list = (url: URL) => url.pathname === '/user/messages';
      await page.route(list, (route) => route.abort('internetdisconnected'));
      await page.getByRole('link', { name: 'Messages' }).first().click();

      const failure = page.getByRole('alert').filter({ hasText: 'Could not reach Mailroom' });
      await failure.waitFor({ timeout: 30_000 });
      expect(await failure.innerText()).toContain('Could not reach Mailroom. Check your connection and try again.');
      expect(await page.getByText('Failed to fetch').count()).toBe(0);
      await page.unroute(list);
      await failure.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('No messages yet').waitFor();
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'names the zone of local times, labels the Overview UTC, and draws whole-number axes with a legend that reads',
    async () => {
      const userId = newUserId();
      await storeMessages(t.db, userId, [
        ...Array.from({ length: 3 }, () => ({ status: 'sent' as const })),
        { status: 'bounced' as const, sentAt: new Date(Date.now() - 86_400_000) },
      ]);
      const context = await served.browser.newContext({
        viewport: { width: 1280, height: 900 },
        timezoneId: 'Asia/Kolkata',
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/messages');
      const sent = page.locator('tbody tr time').first();
      await sent.waitFor();
      expect(await sent.innerText()).toMatch(/GMT\+5:30$/);
      expect(await sent.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByText(/Daily numbers \(\d+ days, UTC\)/).waitFor();
      const chart = page.locator('[data-testid="stats-chart"]');
      await chart.locator('canvas').waitFor();
      // The most on a day is 3: ticks 0 to 3 by 1, never 0.5 or 2.5.
      expect(await chart.getAttribute('data-y-ticks')).toBe('0,1,2,3');
      const legend = await chart.locator('.u-legend').innerText();
      expect(legend).toContain('Day (UTC)');
      for (const label of ['Accepted', 'Sent', 'Bounced', 'Complained']) expect(legend).toContain(label);
      expect(legend).not.toMatch(/Time|\d\.\d/);
      await screenshot(page, 'overview-axes');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'keeps every Copy button whole and inside the screen at 375 px, and it copies',
    async () => {
      const userId = newUserId();
      const name = `mail.${userId.slice(-8)}.example.com`;
      await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
      const { context, page } = await newConsolePage(served.browser, 375);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/domains');
      const buttons = page.getByRole('button', { name: /^Copy / });
      await buttons.first().waitFor();
      expect(await buttons.count()).toBeGreaterThanOrEqual(6);
      for (const button of await buttons.all()) {
        await button.scrollIntoViewIfNeeded();
        const box = (await button.boundingBox())!;
        const { clientWidth, scrollWidth, clientHeight } = await button.evaluate((element) => ({
          clientWidth: element.clientWidth,
          scrollWidth: element.scrollWidth,
          clientHeight: element.clientHeight,
        }));
        expect({ left: box.x >= 0, right: box.x + box.width <= 375, clipped: scrollWidth > clientWidth }).toEqual({
          left: true,
          right: true,
          clipped: false,
        });
        // One line: "Copy" is not broken into letters stacked in a squeezed button.
        expect(clientHeight).toBeLessThan(40);
      }
      await page.getByRole('button', { name: 'Copy dkim value' }).click();
      await page.getByRole('button', { name: 'Copied dkim value' }).waitFor();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toMatch(/^v=DKIM1; k=rsa; p=/);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'domains-copy-375');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'breaks addresses at 1280 px only between them, after an @ or before a dot, never between any two characters',
    async () => {
      const userId = newUserId();
      const to = [
        'frederick.augustus.longname@subdomain.example-company.com',
        'Ada Lovelace <ada.lovelace@analytical-engines.example.org>',
        'grace.brewster.murray.hopper@navy-research.example.net',
        'someone-with-a-long-local-part@example.com',
      ];
      const message = await storeMessage(t.db, userId, {
        subject: 'A subject of several words that takes its share of the row as subjects do in real lists',
        sender: 'notifications-and-alerts@mailer.example-company.com',
        recipients: to,
      });
      // Each recipient refused with a long reply: the Why column's text would take the Address column's room.
      const reply = `550 5.1.1 ${'The email account that you tried to reach does not exist, please check it. '.repeat(3)}`;
      await t.db.query(
        `UPDATE messages SET recipient_fates = (SELECT jsonb_agg(f || jsonb_build_object('status', 'failed', 'detail', $2::text))
           FROM jsonb_array_elements(recipient_fates) f) WHERE id = $1`,
        [message.id, reply],
      );
      // Where a line may break in an address: between two of them, after a space (a display name),
      // after an @ or a hyphen, before a dot.
      const sensible = (breaks: string[]) => breaks.filter((at) => /[\s@-]\|/.test(at) || /\|\./.test(at));
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId));
      const listed = page.locator('td[data-label="To"], td[data-label="Subject"] .small');
      await listed.first().waitFor();
      const inList = await lineBreaks(listed);
      expect(inList).toEqual(sensible(inList));
      expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
      await screenshot(page, 'messages-addresses-1280');

      await page.goto(`${served.baseUrl}/console/messages/${message.id}`);
      const recipients = page.getByRole('region', { name: 'Recipients' }).locator('td[data-label="Address"]');
      await recipients.first().waitFor();
      const inRecipients = await lineBreaks(recipients);
      expect(inRecipients).toEqual(sensible(inRecipients));
      expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
      await screenshot(page, 'message-recipients-1280');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
