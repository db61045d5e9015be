import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { consoleInBrowser, newConsolePage, pageWidth, seriousAxeViolations, signInAsMember } from '../support/console';
import { sendBody } from '../support/factories';
import { invitationToken, joinedMember, PASSWORD } from '../support/members';
import { bearer, newUserId } from '../support/tokens';

/** docs/teams.md#several-accounts: a member of two accounts switches from the header, and sees the other's data alone. */
describeInBrowser('Console account switch browser tests')(
  'the console: switching accounts (docs/teams.md#several-accounts)',
  () => {
    const { t, served } = consoleInBrowser(
      { SYSTEM_MAIL_FROM: 'Mailroom <no-reply@example.com>' },
      { ownOrigin: true },
    );

    it(
      'offers the other account in the header; Switch shows that account, its role and its messages only',
      async () => {
        const [first, second] = [newUserId('first'), newUserId('second')];
        const email = `both-${first}@example.com`;
        await joinedMember(t, first, email, 'admin');
        await t.http.post('/user/members').set(bearer(second)).send({ email, role: 'viewer' }).expect(201);
        const token = await invitationToken(t, second, email);
        await t.http
          .post(`/invitations/${token}/accept`)
          .send({ password: 'the second account’s password' })
          .expect(200);
        await t.http
          .post('/sender/send')
          .set(bearer(second))
          .send(sendBody({ subject: 'Only in the second account' }))
          .expect(201);

        const { context, page } = await newConsolePage(served.browser, 375);
        await signInAsMember(page, served.baseUrl, email, PASSWORD, '/console/messages');
        const who = page.getByTestId('who');
        await who.getByText(`account ${first}`).waitFor();
        await page.getByText('No messages yet').waitFor();
        const choice = page.getByLabel('Account');
        expect(await choice.locator('option').allTextContents()).toEqual(
          [`${first} (admin)`, `${second} (viewer)`].sort(),
        );
        // Choosing switches nothing until Switch is pressed.
        await choice.selectOption(second);
        expect(await who.textContent()).toContain(`account ${first}`);
        expect(await seriousAxeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: 'Switch' }).click();
        await who.getByText(`account ${second}`).waitFor();
        expect(await who.textContent()).toContain('· viewer');
        await page.getByText('Only in the second account').waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
