import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newApiKey,
  newConsolePage,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { storeMessage } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** docs/architecture.md#the-console: the Domains, API keys and Suppressions pages against a real server, database and DNS server. */
describeInBrowser('Console settings browser tests')(
  'the console: Domains, API keys, Suppressions (docs/architecture.md#the-console)',
  () => {
    const { t, dns, served } = consoleInBrowser();

    it(
      'adds a domain, copies its records, verifies it against DNS (first what is missing and why), and deletes it',
      async () => {
        const userId = newUserId();
        const name = `${userId.slice(-8)}.example.com`;
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/domains');
        await page.getByText('No domains yet').waitFor();

        await page.getByLabel('Domain', { exact: true }).fill(name);
        await page.getByRole('button', { name: 'Add domain' }).click();
        const card = page.getByRole('article', { name });
        await card.waitFor();
        const [domain] = (await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains;
        const dkim = domain.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
        await card.getByRole('button', { name: 'Copy dkim value' }).click();
        await card.getByText('Copied').waitFor();
        expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(dkim.value);

        await card.getByRole('button', { name: 'Verify' }).click();
        await card.getByText('Still pending: a required record was not found.').waitFor();
        expect(await card.getByRole('status').innerText()).toContain(`no TXT record at ${dkim.name}`);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'domains-pending');

        dns.publish(dkim.name, dkim.value);
        await card.getByRole('button', { name: 'Verify' }).click();
        await card.getByText('Verified: the DKIM record was found.').waitFor();
        await card.locator('.page-header .badge-verified').waitFor();
        await screenshot(page, 'domains-verified');

        await card.getByRole('button', { name: 'Delete' }).click();
        await card.getByRole('button', { name: 'Yes, delete' }).click();
        await page.getByText('No domains yet').waitFor();
        expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains).toEqual([]);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'creates an API key with the scopes chosen, shows it once with a copy button, lists it without it, and deletes it',
      async () => {
        const userId = newUserId();
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/api-keys');
        await page.getByText('No API keys yet').waitFor();

        await page.getByLabel('Name').fill('Newsletter server');
        await page.getByRole('checkbox', { name: /^keys/ }).uncheck();
        await page.getByRole('button', { name: 'Create key' }).click();
        const key = await page.getByTestId('new-key').innerText();

        expect(key).toMatch(/^mr_[A-Za-z0-9_-]{40,}$/);
        const caller = (await t.http.get('/user/me').set('Authorization', `Bearer ${key}`).expect(200)).body;
        expect(caller).toMatchObject({ userId, scopes: ['send', 'read'] });
        await page.getByRole('button', { name: 'Copy the new API key' }).click();
        expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
        const row = page.getByRole('row', { name: /Newsletter server/ });
        expect(await row.innerText()).toContain(key.slice(0, 8));
        expect(await row.innerText()).toContain('send, read');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'api-keys-created');

        await page.getByRole('button', { name: 'Done' }).click();
        // The click returns before React re-renders: wait for the key's box to go, then look for the key anywhere.
        await page.getByTestId('new-key').waitFor({ state: 'detached' });
        expect(await page.getByText(key).count()).toBe(0);
        await page.reload();
        await row.waitFor();
        expect(await page.content()).not.toContain(key);

        await row.getByRole('button', { name: 'Delete' }).click();
        await row.getByRole('button', { name: 'Yes, delete' }).click();
        await page.getByText('No API keys yet').waitFor();
        await t.http.get('/user/me').set('Authorization', `Bearer ${key}`).expect(401);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'links a suppression to the message whose bounce caused it',
      async () => {
        const userId = newUserId();
        const message = await storeMessage(t.db, userId, {
          subject: 'The one that bounced',
          recipients: ['gone@example.com'],
        });
        await t.db.query(
          `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at) VALUES ($1, $2, 'hard_bounce', 'all', $3, now())`,
          [userId, 'gone@example.com', message.id],
        );
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/suppressions');
        await page.getByRole('link', { name: 'Message that suppressed gone@example.com' }).click();
        await page.getByRole('heading', { name: 'The one that bounced' }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/console/messages/${message.id}`);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'adds a suppression, finds it by search (in the URL), and removes it',
      async () => {
        const userId = newUserId();
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'other@example.com' }).expect(201);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/suppressions');
        await page.getByRole('row', { name: /other@example.com/ }).waitFor();

        // Enter in the address alone adds nothing (issue 33): what it stops is asked first.
        const address = page.getByRole('textbox', { name: 'Address to suppress' });
        await address.fill('Gone@Example.com');
        await address.press('Enter');
        // The browser's refusal moves the focus to the choice: the signal that the submit was stopped.
        await page.waitForFunction("document.activeElement?.getAttribute('name') === 'scope'");
        expect(await page.evaluate('document.activeElement.validity.valueMissing')).toBe(true);
        expect((await t.http.get('/user/suppressions').set(bearer(userId)).expect(200)).body.total).toBe(1);
        await page.getByRole('radio', { name: 'bulk mail only' }).check();
        await page.getByRole('button', { name: 'Add suppression' }).click();
        await page.getByRole('row', { name: /gone@example.com/ }).waitFor();
        expect(await page.getByRole('row', { name: /gone@example.com/ }).innerText()).toContain('bulk mail');
        expect(await page.getByRole('row', { name: /other@example.com/ }).innerText()).toContain('Added by hand');

        // The API filters by a whole address: the field says so, and part of one is an input problem.
        const searchbox = page.getByRole('searchbox', { name: 'Find a suppressed address' });
        const hint = await searchbox.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${hint}"]`).innerText()).toContain('A whole address');
        await searchbox.fill('gone');
        await page.getByRole('button', { name: 'Search' }).click();
        const problem = page.getByRole('alert').filter({ hasText: 'Check the search' });
        await problem.locator('.field-error code', { hasText: 'email' }).waitFor();
        expect(await problem.getByRole('button', { name: 'Try again' }).count()).toBe(0);

        await searchbox.fill('gone@example.com');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByText('Page 1 of 1 · 1 address').waitFor();
        expect(new URL(page.url()).search).toBe('?email=gone%40example.com');
        await page.reload();
        await page.getByText('Page 1 of 1 · 1 address').waitFor();
        expect(await page.getByRole('row', { name: /other@example.com/ }).count()).toBe(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'suppressions');

        await page.getByRole('button', { name: 'Remove' }).click();
        await page.getByRole('button', { name: 'Yes, remove' }).click();
        await page.getByText('gone@example.com is not suppressed').waitFor();
        const { body } = await t.http.get('/user/suppressions').set(bearer(userId)).expect(200);
        expect(body.suppressions.map((entry: { email: string }) => entry.email)).toEqual(['other@example.com']);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a read-only key every change as not allowed, and the API keys page as not allowed at all',
      async () => {
        const userId = newUserId();
        await t.http
          .post('/domains')
          .set(bearer(userId))
          .send({ name: `${userId.slice(-8)}.example.org` })
          .expect(201);
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'x@example.com' }).expect(201);
        const { key } = await newApiKey(t, userId, ['read']);
        const { context, page } = await newConsolePage(served.browser, 375);
        await signIn(page, served.baseUrl, key, '/console/domains');

        for (const name of ['Add domain', 'Verify', 'Delete'])
          expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'domains-read-only-375');

        await page.getByRole('link', { name: 'Suppressions' }).click();
        await page.getByRole('row', { name: /x@example.com/ }).waitFor();
        for (const name of ['Add suppression', 'Remove'])
          expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
        expect(await page.getByRole('radio', { name: 'all mail' }).isDisabled()).toBe(true);
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        await screenshot(page, 'suppressions-read-only-375');

        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByText('Not allowed: this API key lacks the keys scope (it has read).').waitFor();
        expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
