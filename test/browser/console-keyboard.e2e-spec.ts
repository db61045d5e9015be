import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, openFilters, signIn } from '../support/console';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** Issue 27: what a keyboard user and the browser's tab found missing. */
describeInBrowser('Console keyboard browser tests')('the console: keyboard and icon', () => {
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
      // A string, evaluated in the page: the test's tsconfig has no `document`.
      await page.waitForFunction("document.activeElement?.textContent === 'Delete'");
      expect(
        await card
          .getByRole('button', { name: 'Delete' })
          .evaluate((button) => button.ownerDocument.activeElement === button),
      ).toBe(true);
      expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains).toHaveLength(1);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'rings a date input while its calendar button has the focus',
    async () => {
      const { context, page } = await newConsolePage(served.browser);
      await signIn(page, served.baseUrl, tokenFor(newUserId()));
      await openFilters(page);
      const date = page.getByLabel('Sent from');
      await date.focus();
      // Month, day, year, then the calendar button: three Tabs reach it, a fourth leaves the input.
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      const ring = () =>
        date.evaluate((input) => {
          const style = input.ownerDocument.defaultView!.getComputedStyle(input);
          return {
            focused: input.ownerDocument.activeElement === input,
            outline: `${style.outlineStyle} ${style.outlineWidth}`,
          };
        });
      expect(await ring()).toEqual({ focused: true, outline: 'solid 3px' });
      await page.keyboard.press('Tab');
      expect((await ring()).focused).toBe(false);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'links an SVG icon of its own origin, so the browser does not ask for /favicon.ico',
    async () => {
      const { context, page } = await newConsolePage(served.browser);
      await page.goto(`${served.baseUrl}/console/`);
      const href = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(href).toMatch(/^\/console\/assets\/.+\.svg$/);
      const icon = await page.request.get(`${served.baseUrl}${href}`);
      expect(icon.status()).toBe(200);
      expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
      expect(await icon.text()).toContain('<svg');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
