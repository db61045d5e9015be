import type { Page } from 'playwright-core';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, signIn } from '../support/console';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** Counts the requests the page sends with `method` to a path ending in `path`. */
function countRequests(page: Page, method: string, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname.endsWith(path)) count += 1;
  });
  return () => count;
}

/**
 * Issue 27: a double click on a submit sent two POSTs (two endpoints, two keys). The second click's
 * request would leave before the first answer renders, so once the created UI shows, the count is final.
 */
describeInBrowser('Console double-submit browser tests')('the console: a double click submits once', () => {
  const { t, served } = consoleInBrowser({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

  it(
    'adds one webhook endpoint when its submit is double-clicked',
    async () => {
      const userId = newUserId();
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
      await page.getByText('No webhook endpoints yet').waitFor();
      const posts = countRequests(page, 'POST', '/user/webhook-endpoints');

      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
      await form.getByLabel('URL').fill('http://127.0.0.1:9/hooks/double');
      await form.getByRole('button', { name: 'Add endpoint' }).dblclick();
      await page.getByTestId('new-endpoint-secret').waitFor();

      expect(posts()).toBe(1);
      const { endpoints } = (await t.http.get('/user/webhook-endpoints').set(bearer(userId)).expect(200)).body;
      expect(endpoints).toHaveLength(1);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'creates one API key when its submit is double-clicked',
    async () => {
      const userId = newUserId();
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/api-keys');
      await page.getByText('No API keys yet').waitFor();
      const posts = countRequests(page, 'POST', '/user/api-keys');

      await page.getByLabel('Name').fill('Double click');
      await page.getByRole('button', { name: 'Create key' }).dblclick();
      await page.getByTestId('new-key').waitFor();
      await page.getByRole('row', { name: /Double click/ }).waitFor();

      expect(posts()).toBe(1);
      const { apiKeys } = (await t.http.get('/user/api-keys').set(bearer(userId)).expect(200)).body;
      expect(apiKeys).toHaveLength(1);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
