import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { Locator, Page } from 'playwright-core';
import { InboundSmtpListener } from '../../src/inbound/inbound-smtp.listener';
import { sendWithNodemailer } from '../support/bounces/smtp-clients';
import { newDomain } from '../support/inbound/inbound-app';
import { BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import {
  answersFrom,
  appearsWithin,
  consoleInBrowser,
  newApiKey,
  newConsolePage,
  openFilters,
  pageWidth,
  screenshot,
  seriousAxeViolations,
  signIn,
} from '../support/console';
import { hostileHtml, trackingServer, waitForRefusals, watchPage } from '../support/hostile-preview';
import { bearer, newUserId, tokenFor } from '../support/tokens';

/** A mail's own styles, which the preview must apply: a <style> rule and a style="" attribute. */
const STYLED = [
  '<style>.boxed { border-top: 7px solid rgb(4, 5, 6); }</style>',
  '<p id="by-rule" class="boxed">Boxed by a style element</p>',
  '<p id="by-attribute" style="color: rgb(1, 2, 3)">Coloured by a style attribute</p>',
].join('\n');

/** The element's computed `property`, as the browser applied the styles (the test's tsconfig has no DOM types). */
const computed = (locator: Locator, property: string) =>
  locator.evaluate(
    (element, name) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(n: string): string } })
        .getComputedStyle(element)
        .getPropertyValue(name),
    property,
  );

/** docs/inbound.md, docs/architecture.md#the-console: the Inbound pages and the Domains page's receiving switch, with mail delivered over SMTP. */
describeInBrowser('Console inbound browser tests')(
  'the console: Inbound and receiving (docs/inbound.md, docs/architecture.md#the-console)',
  () => {
    // The inbound listener runs beside the API; a database of its own, as its workers take any job.
    const { t, dns, served } = consoleInBrowser({ ROLE: 'all', INBOUND_SMTP_PORT: '0' }, { isolatedDatabase: true });
    const tracking = trackingServer();

    /** A domain of `userId`, verified against the test's DNS server; receiving on when `receiving`. */
    const domainOf = async (userId: string, receiving: boolean, name = newDomain('console')) => {
      const created = (await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201)).body;
      const dkim = created.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
      dns.publish(dkim.name, dkim.value);
      const domain = (await t.http.post(`/domains/${created.id}/verify`).set(bearer(userId)).expect(200)).body;
      if (!receiving) return domain;
      return (await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: true }).expect(200))
        .body;
    };

    /** Composes `mail` and hands it to the inbound listener as a relay would; resolves once it answered 250. */
    const deliver = async (mail: Mail.Options & { from: string; to: string }) => {
      const raw = await new MailComposer(mail).compile().build();
      const port = t.app.get(InboundSmtpListener).port!;
      expect(await sendWithNodemailer(port, mail.to, raw, mail.from)).toMatchObject({ accepted: true });
    };

    const pageStatus = (page: Page) => page.getByRole('navigation', { name: 'mails pages' }).locator('span');

    it(
      'lists received mail newest first with exact totals, pages, and keeps its filters in the URL across a reload',
      async () => {
        const userId = newUserId('inbound-list');
        const { name } = await domainOf(userId, true);
        for (let n = 1; n <= 11; n++)
          await deliver({
            from: 'cara@example.org',
            to: `desk@${name}`,
            subject: `Question ${n}`,
            text: `number ${n}`,
          });
        await deliver({ from: 'dan@example.net', to: `sales@${name}`, subject: 'From Dan', text: 'hello' });

        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/messages');
        await page.getByRole('link', { name: 'Inbound' }).click();
        await page.getByRole('heading', { name: 'Inbound' }).waitFor();
        expect(await pageStatus(page).innerText()).toBe('Page 1 of 2 · 12 mails');
        const subjects = () => page.locator('tbody tr td:first-child a').allInnerTexts();
        expect((await subjects()).slice(0, 2)).toEqual(['From Dan', 'Question 11']);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'inbound-list');

        await page.getByRole('button', { name: 'Next →' }).click();
        await page.getByText('Page 2 of 2 · 12 mails').waitFor();
        expect(await subjects()).toEqual(['Question 2', 'Question 1']);
        expect(new URL(page.url()).search).toBe('?page=2');

        await openFilters(page);
        await page.getByLabel('From', { exact: true }).fill('dan@example.net');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.getByText('Page 1 of 1 · 1 mail').waitFor();
        expect(new URL(page.url()).search).toBe('?fromEmail=dan%40example.net');
        await page.reload();
        await page.getByText('Page 1 of 1 · 1 mail').waitFor();
        expect(await subjects()).toEqual(['From Dan']);
        expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('dan@example.net');
        expect(await page.getByRole('row', { name: /From Dan/ }).innerText()).toContain(`sales@${name}`);
        // docs/architecture.md#the-console: a mail received while the list is open shows up without a reload, the filter kept.
        const listed = answersFrom(page, '/user/inbound');
        await deliver({ from: 'dan@example.net', to: `sales@${name}`, subject: 'Dan again', text: 'hi' });
        await appearsWithin(page.getByRole('link', { name: 'Dan again' }), listed);
        await page.getByText('Page 1 of 1 · 2 mails').waitFor();
        expect(new URL(page.url()).search).toBe('?fromEmail=dan%40example.net');

        await page.getByLabel('To', { exact: true }).fill(`desk@${name}`);
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.getByText('No mail matches these filters').waitFor();

        // A mail that is not this user's (or nobody's) is Not found, with the way back, not a failure.
        await page.goto(`${served.baseUrl}/console/inbound/${randomUUID()}`);
        const notFound = page.getByRole('alert').filter({ hasText: 'Not found' });
        await notFound.waitFor();
        expect(await notFound.getByRole('button', { name: 'Try again' }).count()).toBe(0);
        await notFound.getByRole('link', { name: 'Back to Inbound' }).click();
        // The 12 delivered first and Dan's second one.
        await page.getByText('Page 1 of 2 · 13 mails').waitFor();
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      "shows a mail's fields, verdicts in words, the message it answers, and its hostile HTML where nothing runs or loads but its styles apply",
      async () => {
        const userId = newUserId('inbound-mail');
        const origin = tracking.origin();
        const { name } = await domainOf(userId, true);
        const sent = (
          await t.http
            .post('/sender/send')
            .set(bearer(userId))
            .send({ sender: `ada@${name}`, to: ['cara@example.org'], subject: 'Invoice', text: 'attached' })
            .expect(201)
        ).body;
        // SPF of the envelope's domain allows the test's loopback relay; no DKIM signature, no DMARC record.
        dns.publish('sender.example.org', 'v=spf1 ip4:127.0.0.1 -all');
        await deliver({
          from: 'Cara <cara@sender.example.org>',
          to: `ada@${name}`,
          subject: 'Re: Invoice',
          inReplyTo: `<${sent.id}@${name}>`,
          text: 'Thanks, the invoice arrived.',
          html: hostileHtml(origin).replace('</body>', `${STYLED}</body>`),
          attachments: [{ filename: 'receipt.txt', content: 'Receipt 42: paid' }],
        });
        const [mail] = (await t.http.get('/user/inbound').set(bearer(userId)).expect(200)).body.inbound;
        expect(mail.authentication).toEqual({ spf: 'pass', dkim: 'none', dmarc: 'none' });
        expect(await (await fetch(`${origin}/reachable`)).text()).toBe('tracked');

        const { context, page } = await newConsolePage(served.browser);
        const { consoleLines, dialogs } = watchPage(page);
        await signIn(page, served.baseUrl, tokenFor(userId), `/console/inbound/${mail.id}`);
        await page.getByRole('heading', { name: 'Re: Invoice' }).waitFor();
        const url = page.url();
        const title = await page.title();
        const fields = await page.locator('dl.fields').first().innerText();
        for (const text of ['Cara <cara@sender.example.org>', `ada@${name}`, 'cara@sender.example.org'])
          expect(fields).toContain(text);
        const verdicts = page.getByRole('region', { name: 'Authentication' });
        // Plain words that claim no more than each check shows (issue 33): an SPF pass is not a genuine From address.
        expect(await verdicts.innerText()).toMatch(
          /SPF\s+pass The server that delivered it may send for the envelope sender’s domain\. This says nothing about the From address\./,
        );
        expect(await verdicts.innerText()).toMatch(/DKIM\s+none The mail is not signed: nothing to check\./);
        expect(await verdicts.innerText()).toMatch(/DMARC\s+none The From address’s domain publishes no DMARC policy/);

        const preview = page.frameLocator('iframe.mail-preview');
        expect(await page.locator('iframe.mail-preview').getAttribute('sandbox')).toBe('');
        await preview.getByText('Visible body of the hostile mail').waitFor();
        await waitForRefusals(consoleLines, origin);
        expect(await computed(preview.locator('#by-attribute'), 'color')).toBe('rgb(1, 2, 3)');
        expect(await computed(preview.locator('#by-rule'), 'border-top-width')).toBe('7px');
        expect(tracking.requests).toEqual(['/reachable']);
        expect(dialogs).toEqual([]);
        expect(consoleLines.filter((line) => line.includes('HOSTILE'))).toEqual([]);
        // Its inline styles applied (above), none refused: the only style refusals are of other origins' sheets.
        expect(consoleLines.filter((line) => /inline style/i.test(line))).toEqual([]);
        expect(page.url()).toBe(url);
        expect(await page.title()).toBe(title);
        await page.getByText('Thanks, the invoice arrived.').waitFor();
        await page.getByRole('region', { name: 'Content' }).getByText('In-Reply-To').waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'inbound-mail-hostile');

        const content = page.getByRole('region', { name: 'Content' });
        const [attachment] = await Promise.all([
          page.waitForEvent('download'),
          content.getByRole('button', { name: 'receipt.txt' }).click(),
        ]);
        expect(await readFile(await attachment.path(), 'utf8')).toBe('Receipt 42: paid');
        const [eml] = await Promise.all([
          page.waitForEvent('download'),
          content.getByRole('button', { name: 'Download .eml' }).click(),
        ]);
        expect(eml.suggestedFilename()).toBe(`${mail.id}.eml`);
        expect(await readFile(await eml.path(), 'utf8')).toMatch(/^Subject: Re: Invoice$/m);

        await page.getByRole('link', { name: `your message ${sent.id}` }).click();
        await page.getByRole('heading', { name: 'Invoice', exact: true }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/console/messages/${sent.id}`);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'turns receiving on (the MX record with its copy button) and off, and shows the 409s of a pending domain and of a name another user receives for',
      async () => {
        const [userId, other] = [newUserId('receiving'), newUserId('receiving-other')];
        const name = newDomain('console-rx');
        const verified = await domainOf(userId, false, name);
        const taken = newDomain('console-taken');
        await domainOf(other, true, taken);
        await domainOf(userId, false, taken);
        const pendingName = newDomain('console-pending');
        await t.http.post('/domains').set(bearer(userId)).send({ name: pendingName }).expect(201);

        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/domains');
        const card = page.getByRole('article', { name });
        const toggle = card.getByRole('switch', { name: 'Receive mail' });
        expect(await toggle.isChecked()).toBe(false);
        await toggle.click();
        await card.getByText('On: mail to any address').waitFor();
        expect(await toggle.isChecked()).toBe(true);
        await card.getByRole('button', { name: 'Copy inbound value' }).click();
        expect(await page.evaluate<string>('navigator.clipboard.readText()')).toMatch(/^10 /);
        expect((await t.http.get(`/domains/${verified.id}`).set(bearer(userId)).expect(200)).body.receiving).toBe(true);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'domains-receiving');

        await toggle.click();
        await card.getByText('Off.').waitFor();
        expect(await card.getByRole('button', { name: 'Copy inbound value' }).count()).toBe(0);
        expect((await t.http.get(`/domains/${verified.id}`).set(bearer(userId)).expect(200)).body.receiving).toBe(
          false,
        );

        const pending = page.getByRole('article', { name: pendingName });
        await pending.getByRole('switch', { name: 'Receive mail' }).click();
        expect(await pending.getByRole('alert').innerText()).toMatch(/pending/);
        const theirs = page.getByRole('article', { name: taken });
        await theirs.getByRole('switch', { name: 'Receive mail' }).click();
        await theirs
          .getByRole('alert')
          .getByText(`Another account receives mail for ${taken}; one account receives for a domain name.`)
          .waitFor();
        expect(await theirs.getByRole('switch', { name: 'Receive mail' }).isChecked()).toBe(false);
        await screenshot(page, 'domains-receiving-409');

        // Another action that goes through makes the 409s stale: they go (issue 27).
        await toggle.click();
        await card.getByText('On: mail to any address').waitFor();
        await pending.getByRole('alert').waitFor({ state: 'detached' });
        expect(await theirs.getByRole('alert').count()).toBe(0);
        await context.close();
      },
      BROWSER_TIMEOUT,
    );

    it(
      'shows a read-only key the receiving switch disabled with the reason, and Inbound usable 375 px wide',
      async () => {
        const userId = newUserId('inbound-read');
        const { name } = await domainOf(userId, true);
        await deliver({ from: 'cara@example.org', to: `desk@${name}`, subject: 'Narrow screens', text: 'hi' });
        const { key } = await newApiKey(t, userId, ['read']);
        const { context, page } = await newConsolePage(served.browser, 375);
        await signIn(page, served.baseUrl, key, '/console/domains');
        const toggle = page.getByRole('switch', { name: 'Receive mail' });
        expect(await toggle.isDisabled()).toBe(true);
        expect(await toggle.isChecked()).toBe(true);
        await page.getByText('Not allowed: this API key lacks the send scope (it has read).').first().waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);

        await page.goto(`${served.baseUrl}/console/inbound`);
        await page.getByRole('link', { name: 'Narrow screens' }).click();
        await page.getByRole('heading', { name: 'Narrow screens' }).waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'inbound-mail-375');
        await context.close();
      },
      BROWSER_TIMEOUT,
    );
  },
);
