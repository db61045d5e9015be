import { readFile } from 'node:fs/promises';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  consoleInBrowser,
  newConsolePage,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { sendBody } from '../support/factories';
import { hostileHtml, trackingServer, waitForRefusals, watchPage } from '../support/hostile-preview';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** docs/architecture.md#the-console: the Message page's content — a sandboxed preview, the text, headers, attachments, .eml. */
describeInBrowser('Console content browser tests')(
  "the console: a message's content (docs/api.md#reading-back, docs/architecture.md#the-console)",
  () => {
    const { t, served } = consoleInBrowser();
    const tracking = trackingServer();
    const { requests } = tracking;

    it(
      'shows hostile HTML in a sandbox where no script runs, nothing remote loads and nothing navigates',
      async () => {
        const userId = newUserId();
        const origin = tracking.origin();
        const sent = await t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ subject: 'Hostile mail', html: hostileHtml(origin), text: 'Plain words for the reader' }))
          .expect(201);
        // The server answers: a request the preview made would be counted.
        expect(await (await fetch(`${origin}/reachable`)).text()).toBe('tracked');
        const { context, page } = await newConsolePage(served.browser);
        const { consoleLines, dialogs } = watchPage(page);
        await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${sent.body.id}`);
        const url = page.url();
        const title = await page.title();

        const preview = page.locator('iframe.mail-preview');
        expect(await preview.getAttribute('sandbox')).toBe('');
        await page.frameLocator('iframe.mail-preview').getByText('Visible body of the hostile mail').waitFor();
        await waitForRefusals(consoleLines, origin);
        await page.getByText('Plain words for the reader').waitFor();

        expect(requests).toEqual(['/reachable']);
        expect(dialogs).toEqual([]);
        expect(consoleLines.filter((line) => line.includes('HOSTILE'))).toEqual([]);
        expect(page.url()).toBe(url);
        expect(await page.title()).toBe(title);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'message-content-hostile');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows the text, the custom headers and the attachments, and downloads an attachment and the .eml with the credential',
      async () => {
        const userId = newUserId();
        const sent = await t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(
            sendBody({
              subject: 'Invoice with files',
              headers: { 'X-Campaign': 'spring-2026' },
              attachments: [
                { fileName: 'invoice.txt', content: Buffer.from('Invoice 42: 10 EUR').toString('base64') },
                {
                  fileName: 'logo.png',
                  content: Buffer.from('not really a png').toString('base64'),
                  contentId: 'logo',
                },
              ],
            }),
          )
          .expect(201);
        const { context, page } = await newConsolePage(served.browser, 375);
        await signIn(page, served.baseUrl, tokenFor(userId), `/console/messages/${sent.body.id}`);
        const content = page.getByRole('region', { name: 'Content' });
        await content.getByText('spring-2026').waitFor();
        await content.getByText('X-Campaign').waitFor();
        await content.getByText('inline as cid:logo').waitFor();

        const [attachment] = await Promise.all([
          page.waitForEvent('download'),
          content.getByRole('button', { name: 'invoice.txt' }).click(),
        ]);
        expect(attachment.suggestedFilename()).toBe('invoice.txt');
        expect(await readFile(await attachment.path(), 'utf8')).toBe('Invoice 42: 10 EUR');
        const [eml] = await Promise.all([
          page.waitForEvent('download'),
          content.getByRole('button', { name: 'Download .eml' }).click(),
        ]);
        expect(eml.suggestedFilename()).toBe(`${sent.body.id}.eml`);
        expect(await readFile(await eml.path(), 'utf8')).toMatch(/^Subject: Invoice with files$/m);

        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'message-content-375');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
