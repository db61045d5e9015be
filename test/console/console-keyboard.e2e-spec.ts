import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, signIn } from '../support/console';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** Issue 27: what a keyboard user found missing. */
describeInBrowser('Console keyboard browser tests')('the console: keyboard', () => {
  const { t, served } = consoleInBrowser();

  it(
    'takes a Delete question back with Escape, the focus back on Delete, and nothing deleted',
    async () => {
      const userId = newUserId();
      const name = `${userId.slice(-8)}.example.com`;
      await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(userId), '/console/domains');
      const card = page.getByRole('article', { name });

      await card.getByRole('button', { name: 'Delete' }).click();
      const question = card.getByRole('group', { name: /^Delete/ });
      await question.getByRole('button', { name: 'Yes, delete' }).waitFor();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.textContent === 'Delete');
      expect(
        await card.getByRole('button', { name: 'Delete' }).evaluate((button) => button === document.activeElement),
      ).toBe(true);
      expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains).toHaveLength(1);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
