import type { Locator } from 'playwright-core';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, pageWidth, screenshot, signIn } from '../support/console';
import { bearer, newUserId, tokenFor } from '../support/tokens';
import { createEndpoint } from '../support/webhook-endpoints/endpoint-support';

const height = async (locator: Locator) => (await locator.boundingBox())?.height ?? Infinity;

/** Issue 27: long values (a 2,000-character URL, a long host name) stay in their card or cell. */
describeInBrowser('Console long values browser tests')('the console: long values', () => {
  const { t, served } = consoleInBrowser({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

  it(
    'shows a 2,000-character endpoint URL in a few lines (all of it in the title), and names a new endpoint in its secret banner until the next add',
    async () => {
      const userId = newUserId();
      const url = `http://127.0.0.1:9/${'very-long-path/'.repeat(133)}`;
      expect(url.length).toBeGreaterThan(2000);
      const { id } = await createEndpoint(t.http, userId, url);
      await t.http.post(`/user/webhook-endpoints/${id}/test`).set(bearer(userId)).expect(202);
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');

      const heading = page.getByRole('heading', { name: url });
      await heading.waitFor();
      expect(await heading.getAttribute('title')).toBe(url);
      expect(await height(heading)).toBeLessThan(120);
      const to = page.locator('td[data-label="To"]');
      await to.waitFor();
      expect(await to.locator('[title]').getAttribute('title')).toBe(url);
      expect(await height(to)).toBeLessThan(120);
      expect((await to.boundingBox())?.width).toBeLessThan(450);
      expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
      await screenshot(page, 'webhooks-long-url');

      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
      await form.getByLabel('URL').fill('http://127.0.0.1:9/hooks/crm');
      await form.getByLabel('Description').fill('CRM bounces');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const banner = page.getByRole('status').filter({ hasText: 'Endpoint added' });
      await banner.getByText('CRM bounces').waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await banner.waitFor({ state: 'detached' });
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'breaks a long host name between its labels, not inside one, at 1280 and at 375 px',
    async () => {
      const userId = newUserId();
      const name = `outbound-mail.${userId.slice(-8)}.campaigns-eu.example.com`;
      await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/domains');
      const hosts = page.locator('td[data-label="Host"] code');
      await hosts.first().waitFor();

      // Each label is an inline box of its own: its boxes on more than one line are a break inside it.
      const splitLabels = () =>
        hosts.evaluateAll((codes) =>
          codes.flatMap((code) =>
            [...code.children]
              .filter((label) => new Set([...label.getClientRects()].map((rect) => rect.top)).size > 1)
              .map((label) => label.textContent),
          ),
        );
      expect(await splitLabels()).toEqual([]);
      await screenshot(page, 'domains-long-host');

      await page.setViewportSize({ width: 375, height: 900 });
      // A string, evaluated in the page: the test's tsconfig has no `document`.
      await page.waitForFunction('document.documentElement.clientWidth === 375');
      expect(await splitLabels()).toEqual([]);
      // The DKIM host (selector._domainkey.name) is wider than the narrow cell: it did wrap, between labels.
      expect(
        await hosts.first().evaluate((code) => new Set([...code.getClientRects()].map((rect) => rect.top)).size),
      ).toBeGreaterThan(1);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'domains-long-host-375');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
