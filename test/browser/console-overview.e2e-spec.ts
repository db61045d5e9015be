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
import { storeMessages } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** docs/architecture.md#the-console Overview: the stats (docs/api.md#routes) of the last 30 days against a real server and database. */
describeInBrowser('Console overview browser tests')(
  'the console: Overview (docs/api.md#reading-back, docs/architecture.md#the-console)',
  () => {
    const { t, served } = consoleInBrowser();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const utcDay = (date: Date) => date.toISOString().slice(0, 10);

    it(
      'lands there after sign-in and draws the chart under the CSP, with totals, rates and the daily table',
      async () => {
        const userId = newUserId();
        // Recipients delivered = 6 sent + 2 bounced + 1 complained = 9, and one refused 550 5.1.1 (an
        // address failure): bounce rate (2 + 1) / 10 handed over, complaint rate 1/9 accepted (docs/api.md#reading-back).
        const stored = await storeMessages(t.db, userId, [
          ...Array.from({ length: 6 }, () => ({ status: 'sent' as const, sentAt: daysAgo(0) })),
          ...Array.from({ length: 2 }, () => ({ status: 'bounced' as const, sentAt: daysAgo(1) })),
          { status: 'complained' as const, sentAt: daysAgo(2) },
          { status: 'failed' as const, sentAt: daysAgo(2) },
        ]);
        // Each recipient in its message's fate, as delivery and the reports leave them; the failed one
        // refused by the receiving server for the address itself.
        await t.db.query(
          `UPDATE messages SET recipient_fates = (
           SELECT jsonb_agg(f || jsonb_build_object('status', status)
             || CASE WHEN status = 'failed' THEN '{"refused": "address", "detail": "550 5.1.1 No such user"}'::jsonb ELSE '{}'::jsonb END)
           FROM jsonb_array_elements(recipient_fates) f)
         WHERE id = ANY($1::uuid[])`,
          [stored.map((message) => message.id)],
        );
        const { context, page } = await newConsolePage(served.browser);
        const refusals: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy|Refused to/.test(message.text())) refusals.push(message.text());
        });
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/');

        await page.getByRole('heading', { name: 'Overview' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/console/overview');
        const tile = (label: string) => page.locator('.stat-tile', { has: page.getByText(label, { exact: true }) });
        expect(await tile('Messages').locator('dd').innerText()).toBe('10');
        expect(await tile('Recipients delivered').locator('dd').innerText()).toBe('9');
        expect(await tile('Bounce rate').locator('dd').innerText()).toBe('30.00 %');
        expect(await tile('Recipients failed').locator('dd').innerText()).toBe('1');
        expect(await tile('Complaint rate').locator('dd').innerText()).toBe('11.11 %');
        // Over Gmail's and Yahoo's 0.3 %: the tile and the hint warn.
        expect(await tile('Complaint rate').getAttribute('class')).toContain('stat-warn');
        await page.locator('.inline-note', { hasText: 'under 0.3 %' }).waitFor();

        // uPlot drew on a canvas of the chart's width, and its bundled stylesheet applies.
        const canvas = page.locator('.stats-chart canvas');
        await canvas.waitFor();
        expect((await canvas.boundingBox())!.width).toBeGreaterThan(300);
        expect(
          await page.evaluate<string>("getComputedStyle(document.querySelector('.stats-chart .u-over')).position"),
        ).toBe('absolute');
        expect(await page.locator('.stats-chart .u-legend').innerText()).toContain('Complained');

        const { body: stats } = await t.http.get('/user/stats').set(bearer(userId)).expect(200);
        await page.getByText(`Daily numbers (${stats.days.length} days, UTC)`).click();
        expect(await page.locator('details tbody tr').count()).toBe(stats.days.length);
        const yesterday = page.getByRole('row', { name: new RegExp(`^${utcDay(daysAgo(1))}`) });
        // Day, messages, recipients, then the recipients by fate: sent to, bounced, complained, failed or refused.
        expect((await yesterday.getByRole('cell').allInnerTexts()).map((text) => text.trim())).toEqual([
          utcDay(daysAgo(1)),
          '2',
          '2',
          '0',
          '2',
          '0',
          '0',
        ]);
        const twoDaysAgo = page.getByRole('row', { name: new RegExp(`^${utcDay(daysAgo(2))}`) });
        expect((await twoDaysAgo.getByRole('cell').allInnerTexts()).map((text) => text.trim())).toEqual([
          utcDay(daysAgo(2)),
          '2',
          '2',
          '0',
          '0',
          '1',
          '1',
        ]);
        expect(refusals).toEqual([]);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'overview');

        await page.setViewportSize({ width: 375, height: 900 });
        await canvas.waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'overview-375');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'says so when there are no messages yet',
      async () => {
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(newUserId()), '/console/overview');
        await page.getByText('No messages yet').waitFor();
        expect(await page.locator('.stats-chart').count()).toBe(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a key without the read scope that the stats are not allowed, not a failure',
      async () => {
        const userId = newUserId();
        const { key } = await newApiKey(t, userId, ['send']);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, key, '/console/overview');
        await page.locator('.state-not-allowed').waitFor();
        expect(await page.getByRole('alert').count()).toBe(0);
        await screenshot(page, 'overview-not-allowed');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
