import { randomInt } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { SYSTEM_ACCOUNT_ID } from '../../src/auth';
import { PasswordResets } from '../../src/auth/password-reset/password-resets';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, pageWidth, screenshot, seriousAxeViolations } from '../support/console';
import { joinedMember, passwordResetToken } from '../support/members';
import { newUserId } from '../support/tokens';

/** A client address of its own (TRUST_PROXY names loopback), so that no other test's resets count against it. */
const aClient = () => ({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });

/** What has the focus: its role, or its tag when it has none. */
const focused = (page: Page) =>
  page.evaluate<string>('document.activeElement?.getAttribute("role") ?? document.activeElement?.tagName ?? ""');

/** docs/teams.md#the-console: the console's side of a password reset, its mail read from the account's messages. */
describeInBrowser('Console password reset browser tests')('the console: password reset (docs/teams.md)', () => {
  const { t, served } = consoleInBrowser(
    { SYSTEM_MAIL_FROM: 'Mailroom <no-reply@example.com>', TRUST_PROXY: '127.0.0.1,::1' },
    { ownOrigin: true },
  );
  const NEW_PASSWORD = 'a brand new passphrase';

  const member = async () => {
    const account = newUserId();
    const email = `reset-${account}@example.com`;
    await joinedMember(t, account, email, 'developer');
    return { account, email };
  };

  /** A page of its own client address, `width` wide. */
  const browse = async (width?: number): Promise<{ context: BrowserContext; page: Page }> => {
    const opened = await newConsolePage(served.browser, width);
    await opened.context.setExtraHTTPHeaders(aClient());
    return opened;
  };

  it(
    'asks for a link from sign-in, sets the new password through the mailed link and signs in with it, at 375 px; the used link then says so',
    async () => {
      const { account, email } = await member();
      const { context, page } = await browse(375);
      await page.goto(`${served.baseUrl}/console/`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();

      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/password-reset');
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'password-reset-ask-375');
      await page.getByRole('button', { name: 'Email me a link' }).click();
      const sent = page.getByRole('status');
      await sent.getByText('belongs to a member, a link valid 30 minutes is on its way').waitFor();
      expect(await sent.textContent()).toContain(`If ${email} belongs to a member`);
      expect(await focused(page)).toBe('status');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'password-reset-sent-375');

      // The mail goes after the answer: its link is read once the service has sent it.
      await t.app.get(PasswordResets).settled();
      const token = await passwordResetToken(t, account, email);
      expect(token).toBeDefined();
      await page.goto(`${served.baseUrl}/console/password-reset/${token}`);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'password-reset-new-375');
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set password' }).click();

      await page.getByRole('status').getByText('Your password is changed; sign in with it.').waitFor();
      expect(await focused(page)).toBe('status');
      // The reset signs nobody in: no session cookie, no header.
      expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('mailroom_session');
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'password-reset-changed-375');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('who').getByText(email).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/overview');

      await page.goto(`${served.baseUrl}/console/password-reset/${token}`);
      await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('alert').getByText('This link was used, has expired or is not a link we sent.').waitFor();
      expect(await focused(page)).toBe('alert');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'password-reset-gone-375');
      await page.getByRole('link', { name: 'Ask for a new link' }).click();
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      // The new password is the one that stands.
      await t.http.post('/session').set(aClient()).send({ email, password: NEW_PASSWORD }).expect(200);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'works from the keyboard alone, and answers an address past its allowance as any other (202, no mail)',
    async () => {
      const { email } = await member();
      // The address's ten requests in 15 minutes, from another client: the next mails nothing, yet reads the same.
      for (let request = 0; request < 10; request++)
        await t.http.post('/password-reset').set(aClient()).send({ email }).expect(202);
      await t.app.get(PasswordResets).settled();
      const { context, page } = await browse();
      await page.goto(`${served.baseUrl}/console/`);
      await page.getByLabel('Email').waitFor();

      // From the address field: the password, Sign in, then the link.
      await page.getByLabel('Email').focus();
      await page.keyboard.type(email);
      for (let tab = 0; tab < 3; tab++) await page.keyboard.press('Tab');
      expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Forgot your password?');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      // The page opens in its field, the address carried over: Enter asks.
      expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('reset-email');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .getByText(/a link valid 30 minutes is on its way/)
        .waitFor();
      expect(await page.evaluate<string>('document.activeElement?.getAttribute("role") ?? ""')).toBe('status');
      await t.app.get(PasswordResets).settled();
      const [{ mails }] = await t.db.query(
        `SELECT count(*)::int AS mails FROM messages WHERE user_id = $1 AND $2 = ANY(recipients) AND subject = 'Reset your Mailroom password'`,
        [SYSTEM_ACCOUNT_ID, email],
      );
      expect(mails).toBe(10);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT,
  );
});
