import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newApiKey,
  newConsolePage,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { storeMessage } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';
import { waitForAsync } from '../support/wait-for';

/** docs/architecture.md#the-console: the console's files, their CSP, and signing in and out with a key or a JWT. */
describeInBrowser('Console sign-in browser tests')(
  'the console: serving and sign-in (docs/architecture.md#the-console)',
  () => {
    const { t, served } = consoleInBrowser();

    const newKey = (userId: string, scopes = ['send', 'read', 'keys']) => newApiKey(t, userId, scopes);

    it('redirects / to /console/ and serves every console file with the CSP, none of it inline', async () => {
      await t.http.get('/').expect(302).expect('Location', '/console/');
      const page = await t.http.get('/console/messages?statuses=sent').expect(200);
      const csp = page.headers['content-security-policy'];

      const directives = new Map(
        csp.split(';').map((directive: string) => {
          const [name, ...sources] = directive.trim().split(/\s+/);
          return [name, sources.join(' ')] as const;
        }),
      );
      expect(directives.get('script-src')).toBe("'self'");
      expect(directives.get('default-src')).toBe("'self'");
      expect(directives.get('frame-ancestors')).toBe("'none'");
      // Inline styles only, for the mail preview's srcdoc that inherits this policy (src/console-files.ts).
      expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect([...directives.keys()].filter((name) => /^(script|worker)-src/.test(name))).toEqual(['script-src']);
      expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text).not.toMatch(/<style|style=|https?:\/\//);
      const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]);
      // The script, its styles and the icon (index.html links an SVG so no browser asks for /favicon.ico).
      expect(assets.map((asset) => asset.split('.').at(-1)).sort()).toEqual(['css', 'js', 'svg']);
      for (const asset of assets) {
        const answer = await t.http.get(asset).expect(200);
        expect(answer.headers['content-security-policy']).toBe(csp);
        expect(answer.headers['cache-control']).toContain('immutable');
      }
      await t.http
        .get('/console/assets/missing.js')
        .expect(404)
        .expect('Content-Type', /problem\+json/);
    });

    it(
      'signs in with an API key, shows who is signed in, and signs out forgetting the key at once',
      async () => {
        const userId = newUserId();
        const { key } = await newKey(userId, ['read']);
        await storeMessage(t.db, userId, { subject: 'Seen through a key' });
        const { context, page } = await newConsolePage(served.browser);

        await page.goto(`${served.baseUrl}/`);
        expect(new URL(page.url()).pathname).toBe('/console/');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'sign-in');
        await signIn(page, served.baseUrl, key);

        await page.getByRole('link', { name: 'Seen through a key' }).waitFor();
        expect(await page.getByText(`${userId} · API key (read)`).isVisible()).toBe(true);
        expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([key]);

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByText('You are signed out').waitFor();
        expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
        await page.reload();
        await page.getByLabel('Email').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'signs in with a JWT, and keeps the session across a reload of the tab',
      async () => {
        const userId = newUserId();
        const { context, page } = await newConsolePage(served.browser);

        await signIn(page, served.baseUrl, tokenFor(userId));
        await page.getByText('No messages yet').waitFor();
        await page.reload();

        await page.getByText(`${userId} · JWT`).waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'refuses a wrong key with the API problem detail, and keeps nothing',
      async () => {
        const { context, page } = await newConsolePage(served.browser);
        await page.goto(`${served.baseUrl}/console/`);
        await page.getByRole('button', { name: 'Sign in with a key' }).click();

        await page.getByLabel('API key or JWT').fill('mr_not-a-key-of-ours-at-all-0000000000000000');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();

        await page.getByRole('alert').getByText('The API key was refused').waitFor();
        expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'returns to sign-in when the API answers 401: the key was deleted mid-session',
      async () => {
        const userId = newUserId();
        const created = await newKey(userId);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, created.key);
        await page.getByText('No messages yet').waitFor();

        await t.http.delete(`/user/api-keys/${created.id}`).set(bearer(userId)).expect(204);
        // A deleted key is refused everywhere within a second (docs/api.md#smtp-submission): wait until this process does.
        await waitForAsync(
          async () => (await t.http.get('/user/me').set('Authorization', `Bearer ${created.key}`)).status === 401,
          'the deleted key refused',
        );
        await page.getByRole('link', { name: 'Domains' }).click();

        await page.getByText('The API refused the credential').waitFor();
        expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
