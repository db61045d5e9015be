import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newConsolePage,
  openFilters,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signInAsMember,
} from '../support/console';
import { invitationToken, joinedMember, PASSWORD } from '../support/members';
import { bearer, newUserId } from '../support/tokens';

/** docs/teams.md: the console's side of teams: signing in as a member, invitations, Members and the audit log. */
describeInBrowser('Console teams browser tests')(
  'the console: members, roles and the audit log (docs/teams.md)',
  () => {
    const { t, served } = consoleInBrowser(
      // The invitation mail's sender, whatever host the test's PUBLIC_URL has.
      { SYSTEM_MAIL_FROM: 'Mailroom <no-reply@example.com>' },
      { ownOrigin: true },
    );

    it(
      'signs in with email and password: the header names the member, its role and account; no script reads the cookie; signs out',
      async () => {
        const account = newUserId();
        const email = `admin-${account}@example.com`;
        await joinedMember(t, account, email, 'admin');
        const { context, page } = await newConsolePage(served.browser);
        const methods = page.waitForResponse((response) => new URL(response.url()).pathname === '/session/methods');
        await page.goto(`${served.baseUrl}/console/`);
        await page.getByLabel('Email').waitFor();
        // No identity provider configured (GET /session/methods answers no OIDC, or is not there): no button for one.
        await methods;
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await page.getByRole('link', { name: /^Sign in with/ }).count()).toBe(0);

        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('not the password at all');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('alert').getByText('The email address or the password is wrong').waitFor();

        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        const who = page.getByTestId('who');
        await who.getByText(email).waitFor();
        expect(await who.textContent()).toBe(`${email}· admin· account ${account}`);
        expect(new URL(page.url()).pathname).toBe('/console/overview');
        // HttpOnly: the browser holds it, no script of the page sees it.
        expect(await page.evaluate<string>('document.cookie')).not.toContain('mailroom_session');
        expect((await context.cookies()).map((cookie) => cookie.name)).toContain('mailroom_session');
        expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);

        // The cookie session outlives a reload of the tab: GET /session finds it.
        await page.reload();
        await who.getByText(email).waitFor();

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByText('You are signed out').waitFor();
        await page.reload();
        await page.getByLabel('Email').waitFor();
        expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a 429 with the wait the API names once the address has failed 10 times',
      async () => {
        const account = newUserId();
        const email = `locked-${account}@example.com`;
        await joinedMember(t, account, email, 'viewer');
        for (let failure = 0; failure < 10; failure++)
          await t.http.post('/session').send({ email, password: 'not the password at all' }).expect(401);
        const { context, page } = await newConsolePage(served.browser);
        await page.goto(`${served.baseUrl}/console/`);

        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page
          .getByRole('alert')
          .getByText(/retry after \d+ s/)
          .waitFor();
        expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'accepts an invitation on its page and lands on the Overview signed in; the link then works no more',
      async () => {
        const account = newUserId();
        const email = `dev-${account}@example.com`;
        await t.http.post('/user/members').set(bearer(account)).send({ email, role: 'developer' }).expect(201);
        const token = await invitationToken(t, account, email);
        const { context, page } = await newConsolePage(served.browser, 375);

        await page.goto(`${served.baseUrl}/console/invitation/${token}`);
        await page.getByRole('heading', { name: 'Join Mailroom' }).waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        await screenshot(page, 'invitation-375');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByLabel('Name (optional)').fill('Grace Hopper');
        await page.getByRole('button', { name: 'Set password and sign in' }).click();

        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/console/overview');
        await page.getByTestId('who').getByText('developer').waitFor();

        await page.goto(`${served.baseUrl}/console/invitation/${token}`);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Set password and sign in' }).click();
        await page.getByText('This invitation was used, has expired or was withdrawn').waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a viewer Members, the audit log and key creation as not allowed, at 375 px; its removal returns it to sign-in',
      async () => {
        const account = newUserId();
        const email = `viewer-${account}@example.com`;
        const viewer = await joinedMember(t, account, email, 'viewer');
        const { context, page } = await newConsolePage(served.browser, 375);
        await signInAsMember(page, served.baseUrl, email, PASSWORD, '/console/members');

        await page.getByText('Not allowed: your role, viewer, does not manage members').waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'members-viewer-375');
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByRole('heading', { name: 'API keys' }).waitFor();
        await page.getByText('Not allowed: your role, viewer, does not include this.').waitFor();
        expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
        await page.getByRole('link', { name: 'Audit log' }).click();
        await page.getByText('Not allowed: your role, viewer, does not read the audit log').waitFor();

        await t.http.delete(`/user/members/${viewer.id}`).set(bearer(account)).expect(204);
        await page.getByRole('link', { name: 'Messages' }).click();
        await page.getByText('Your session has ended').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'lets an owner invite and change a role on Members, and lists the sign-in in the audit log with its filters in the URL',
      async () => {
        const account = newUserId();
        const email = `owner-${account}@example.com`;
        const owner = await joinedMember(t, account, email, 'owner');
        const { context, page } = await newConsolePage(served.browser);
        await signInAsMember(page, served.baseUrl, email, PASSWORD, '/console/members');

        const invited = `new-${account}@example.com`;
        await page.getByLabel('Email').fill(invited);
        await page.getByLabel('Role', { exact: true }).selectOption('viewer');
        await page.getByRole('button', { name: 'Invite' }).click();
        await page.getByRole('status').getByText(`Invited ${invited}`).waitFor();
        const role = page.getByLabel(`Role of ${invited}`);
        expect(await role.inputValue()).toBe('viewer');
        await role.selectOption('developer');
        await page.getByRole('button', { name: 'Change role' }).click();
        await page.getByRole('button', { name: 'Change role' }).waitFor({ state: 'detached' });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'members');

        await page.getByRole('link', { name: 'Audit log' }).click();
        await page.getByRole('cell', { name: 'member.signed_in' }).waitFor();
        // Newest first: the role change, the invitation, then the sign-in.
        const actions = await page.locator('td[data-label="Action"]').allTextContents();
        expect(actions.slice(0, 3)).toEqual(['member.role_changed', 'member.invited', 'member.signed_in']);
        expect(await seriousAxeViolations(page)).toEqual([]);

        await openFilters(page);
        await page.getByLabel('Action').selectOption('member.signed_in');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForURL((url) => url.searchParams.get('action') === 'member.signed_in');
        await page.reload();
        await page.getByRole('cell', { name: 'member.signed_in' }).waitFor();
        expect(await page.getByLabel('Action').inputValue()).toBe('member.signed_in');
        expect(await page.locator('td[data-label="Action"]').allTextContents()).toEqual(['member.signed_in']);

        await page.getByRole('link', { name: `Changes by ${email} (member)` }).click();
        await page.waitForURL((url) => url.searchParams.get('actor') === owner.id);
        await page.getByRole('cell', { name: 'member.invited' }).waitFor();
        await context.close();

        const narrow = await newConsolePage(served.browser, 375);
        await signInAsMember(narrow.page, served.baseUrl, email, PASSWORD, '/console/audit-log');
        await narrow.page.getByRole('cell', { name: 'member.signed_in' }).first().waitFor();
        expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
        await screenshot(narrow.page, 'audit-log-375');
        await narrow.page.getByRole('link', { name: 'Members' }).click();
        await narrow.page.getByText(invited, { exact: true }).waitFor();
        expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(narrow.page)).toEqual([]);
        await narrow.context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);

describeInBrowser('Console OIDC button browser test')('the console: sign-in with an identity provider offered', () => {
  // Nothing answers at this issuer: GET /session/methods needs only the configuration; the redirect is teams.md's.
  const { served } = consoleInBrowser({
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    OIDC_CLIENT_ID: 'mailroom-console',
    OIDC_CLIENT_SECRET: 'not-a-real-secret',
  });

  it(
    'links to GET /session/oidc beside the password form when the API offers OIDC',
    async () => {
      const { context, page } = await newConsolePage(served.browser, 375);
      await page.goto(`${served.baseUrl}/console/`);

      const provider = page.getByRole('link', { name: 'Sign in with single sign-on' });
      await provider.waitFor();
      expect(await provider.getAttribute('href')).toBe('/session/oidc');
      await page.getByLabel('Email').waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, 'sign-in-oidc-375');
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
