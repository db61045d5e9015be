import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newApiKey,
  newConsolePage,
  openFilters,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { sendBody, storeMessage, storeMessages } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** docs/architecture.md#the-console: the Messages and Message pages against a real server and database. */
describeInBrowser('Console messages browser tests')(
  'the console: Messages and Message (docs/architecture.md#the-console)',
  () => {
    const { t, served } = consoleInBrowser();

    const subjects = async (page: Page) => page.locator('table tbody tr td:first-child a').allInnerTexts();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

    it(
      'keeps every filter and the page in the URL, restores them on reload, and pages through the list',
      async () => {
        const userId = newUserId();
        // 12 deferred from billing@ (newest first: B0 … B11), 3 sent from billing@, 2 deferred from news@.
        await storeMessages(t.db, userId, [
          ...Array.from({ length: 12 }, (_, i) => ({
            subject: `B${i}`,
            status: 'deferred' as const,
            sentAt: at(i + 1),
          })),
          ...Array.from({ length: 3 }, (_, i) => ({ subject: `S${i}`, status: 'sent' as const, sentAt: at(i + 20) })),
          ...Array.from({ length: 2 }, (_, i) => ({
            subject: `N${i}`,
            status: 'deferred' as const,
            sender: 'news@example.com',
            sentAt: at(i + 30),
          })),
        ]);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId));
        await page.getByText('Page 1 of 2 · 17 messages').waitFor();

        await openFilters(page);
        await page.getByLabel('deferred').check();
        await page.getByLabel('From', { exact: true }).fill('billing@example.com');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.getByText('Page 1 of 2 · 12 messages').waitFor();

        expect(new URL(page.url()).search).toBe('?statuses=deferred&fromEmail=billing%40example.com');
        expect(await subjects(page)).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8', 'B9']);
        await page.getByRole('button', { name: 'Next →' }).click();
        await page.getByText('Page 2 of 2 · 12 messages').waitFor();
        expect(await subjects(page)).toEqual(['B10', 'B11']);
        expect(new URL(page.url()).searchParams.get('page')).toBe('2');

        await page.reload();
        await page.getByText('Page 2 of 2 · 12 messages').waitFor();
        expect(await subjects(page)).toEqual(['B10', 'B11']);
        expect(await page.getByLabel('deferred').isChecked()).toBe(true);
        expect(await page.getByLabel('sent', { exact: true }).isChecked()).toBe(false);
        expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('billing@example.com');
        expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);

        await page.goBack();
        await page.getByText('Page 1 of 2 · 12 messages').waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'messages');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows the API problem detail for a filter the API refuses, and an empty state when nothing matches',
      async () => {
        const userId = newUserId();
        const { context, page } = await newConsolePage(served.browser);
        await signIn(
          page,
          served.baseUrl,
          tokenFor(userId),
          '/console/messages?startDate=2026-03-05&endDate=2026-03-01',
        );

        await page
          .getByRole('alert')
          .getByText(/endDate/)
          .first()
          .waitFor();
        // A 400 is an input problem: the fields it names, and no retry (the same request would fail again).
        await page.goto(`${served.baseUrl}/console/messages?startDate=not-a-date`);
        const problem = page.getByRole('alert').filter({ hasText: 'Check the filters' });
        await problem.locator('.field-error code', { hasText: 'startDate' }).waitFor();
        expect(await problem.getByRole('button', { name: 'Try again' }).count()).toBe(0);
        expect(await page.getByText('Something went wrong').count()).toBe(0);

        await page.goto(`${served.baseUrl}/console/messages/${randomUUID()}`);
        const notFound = page.getByRole('alert').filter({ hasText: 'Not found' });
        await notFound.waitFor();
        expect(await notFound.getByRole('button', { name: 'Try again' }).count()).toBe(0);
        await notFound.getByRole('link', { name: 'Back to Messages' }).click();
        await page.getByText('No messages yet').waitFor();

        await page.goto(`${served.baseUrl}/console/messages?bulkSending=nothing-like-it`);
        await page.getByText('No message matches these filters').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'tells what happened to a message: recipients with their fates, the timeline with each reply, and cancels it',
      async () => {
        const userId = newUserId();
        const message = await storeMessage(t.db, userId, {
          subject: 'Password reset',
          recipients: ['ada@example.com'],
          cc: ['gone@example.com'],
          status: 'deferred',
        });
        const reply = '451 4.7.1 Greylisted, please try again in 300 seconds';
        await t.db.query(`UPDATE message_status_events SET detail = $2 WHERE message_id = $1 AND status = 'deferred'`, [
          message.id,
          reply,
        ]);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId));
        await page.getByRole('link', { name: 'Password reset' }).click();

        await page.getByRole('heading', { name: 'Password reset' }).waitFor();
        const recipients = page.getByRole('region', { name: 'Recipients' });
        expect(await recipients.getByRole('row').count()).toBe(3);
        await page.getByRole('region', { name: 'Timeline' }).getByText(reply).waitFor();
        await page.getByText('Deferred 1 time').waitFor();
        await page.getByText('This message was sent without a webhook.').waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'message');

        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('button', { name: 'Yes, cancel' }).click();

        await page.locator('.page-header .badge-canceled').waitFor();
        const { body } = await t.http.get(`/user/messages/${message.id}`).set(bearer(userId)).expect(200);
        expect(body.status).toBe('canceled');
        // Final now: Cancel stays, disabled, saying why (docs/delivery-and-deliverability.md#statuses).
        expect(await page.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
        await page.getByText('Cannot cancel: this message is canceled').waitFor();
        await page.getByRole('link', { name: '← Messages' }).click();
        await page.locator('tr', { hasText: 'Password reset' }).locator('.badge-canceled').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      "lists the message's webhook deliveries with each attempt and replays one",
      async () => {
        const userId = newUserId();
        const sent = await t.http
          .post('/sender/send')
          .set(bearer(userId))
          // Nothing is attempted (no worker runs here): the event waits as a pending delivery.
          .send(sendBody({ subject: 'With a webhook', webhook: { url: 'https://hooks.example.com/mail' } }))
          .expect(201);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${sent.body.id}`);

        const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
        await deliveries.getByText('message.queued').waitFor();
        await deliveries.getByRole('button', { name: 'Replay' }).click();

        await deliveries.getByText('Queued again').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a read-only key the actions it may not take as not allowed, at 375 px',
      async () => {
        const userId = newUserId();
        const { key } = await newApiKey(t, userId, ['read']);
        const message = await storeMessage(t.db, userId, { subject: 'Queued one' });
        // A subject that wraps (issue 27: its sender line was pushed to x=430), and one word longer than the screen.
        const long = `Your invoice for November is ready, with every line item listed ${'x'.repeat(80)}`;
        await storeMessage(t.db, userId, { subject: long, sender: 'billing-department@example.com' });
        const { context, page } = await newConsolePage(served.browser, 375);
        await signIn(page, served.baseUrl, key, `/console/messages/${message.id}`);

        const cancel = page.getByRole('button', { name: 'Cancel' });
        await cancel.waitFor();
        expect(await cancel.isDisabled()).toBe(true);
        await page.getByText('Not allowed: this API key lacks the send scope (it has read).').first().waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        await screenshot(page, 'message-read-only-375');
        await page.getByRole('link', { name: 'Messages' }).first().click();
        await page.getByRole('link', { name: 'Queued one' }).waitFor();
        await page.getByRole('link', { name: long }).waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'messages-375');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
