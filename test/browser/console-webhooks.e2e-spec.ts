import { randomUUID } from 'node:crypto';
import type { Locator } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_QUEUE } from '../../src/platform/queue/webhook-queue';
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
import { sendBody } from '../support/factories';
import { waitForQueueSettled } from '../support/queue-settled';
import { bearer, newUserId, tokenFor } from '../support/tokens';
import { WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver';
import { createEndpoint } from '../support/webhook-endpoints/endpoint-support';

const TIMEOUT = 2 * BROWSER_TIMEOUT;

/** Whether the standardwebhooks library, as a receiver runs it, accepts `request` with `secret`. */
function verifies(secret: string, request: ReceivedRequest): boolean {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
  );
  try {
    new Webhook(secret).verify(request.rawBody, headers);
    return true;
  } catch {
    return false;
  }
}

/** The event id the page shows after "Send test" (the `webhook-id` of its requests), once it is not `previous`. */
async function sendTest(card: Locator, previous?: string): Promise<string> {
  await card.getByRole('button', { name: 'Send test' }).click();
  const id = card.getByRole('status').filter({ hasText: 'Test event sent' }).locator('code');
  return (previous ? id.filter({ hasNotText: previous }) : id).innerText();
}

/** docs/delivery-and-deliverability.md#webhooks, docs/architecture.md#the-console: the Webhooks page against a real server with a worker and a real HTTP receiver. */
describeInBrowser('Console webhooks browser tests')(
  'the console: Webhooks (docs/delivery-and-deliverability.md#webhooks, docs/architecture.md#the-console)',
  () => {
    const receiver = new WebhookReceiver();
    // A worker delivers to the receiver on loopback (allowed here only) with short retries, on a
    // database of this file's own so that its queue settles by this file's jobs alone.
    const { t, served } = consoleInBrowser(
      {
        ROLE: 'all',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_DELAYS: '1,1',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
      { isolatedDatabase: true },
    );
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    const endpoints = async (userId: string) =>
      (await t.http.get('/user/webhook-endpoints').set(bearer(userId)).expect(200)).body.endpoints;
    const secretOf = async (userId: string, id: string): Promise<string> =>
      (await t.http.get(`/user/webhook-endpoints/${id}/secret`).set(bearer(userId)).expect(200)).body.secret;

    it(
      'adds an endpoint (its secret shown once, copied), edits, disables and enables it, tests, rotates and deletes it',
      async () => {
        const userId = newUserId();
        const url = receiver.url(`/hooks/console/${randomUUID()}`);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
        await page.getByText('No webhook endpoints yet').waitFor();
        await page.getByText('No webhook deliveries yet').waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);

        // A URL the browser accepts but the API refuses: its problem names the field.
        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
        await form.getByLabel('URL').fill('ftp://example.com/hook');
        await form.getByRole('button', { name: 'Add endpoint' }).click();
        await form.getByRole('alert').getByText('url', { exact: true }).waitFor();

        await form.getByLabel('URL').fill(url);
        await form.getByLabel('Description').fill('Bounces to the CRM');
        await form.getByRole('checkbox', { name: 'message.bounced' }).check();
        await form.getByRole('checkbox', { name: 'suppression.created' }).check();
        await form.getByRole('button', { name: 'Add endpoint' }).click();
        const secret = await page.getByTestId('new-endpoint-secret').innerText();
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,}$/);
        const [created] = await endpoints(userId);
        expect(created).toMatchObject({ url, description: 'Bounces to the CRM', enabled: true });
        expect(created.events.sort()).toEqual(['message.bounced', 'suppression.created']);
        expect(await secretOf(userId, created.id)).toBe(secret);
        await page.getByRole('button', { name: "Copy the new endpoint's signing secret" }).click();
        expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
        await screenshot(page, 'webhooks-created');
        await page.getByRole('button', { name: 'Done' }).click();
        await page.getByTestId('new-endpoint-secret').waitFor({ state: 'detached' });
        expect(await page.getByText(secret).count()).toBe(0);

        const card = page.getByRole('article', { name: url });
        await card.getByRole('button', { name: 'Edit' }).click();
        const edit = card.getByRole('form', { name: `Edit ${url}` });
        expect(await edit.getByRole('checkbox', { name: 'message.bounced' }).isChecked()).toBe(true);
        await edit.getByRole('checkbox', { name: 'message.bounced' }).uncheck();
        await edit.getByLabel('Description').fill('Suppressions only');
        await edit.getByRole('button', { name: 'Save' }).click();
        await card.getByText('Suppressions only').waitFor();
        expect(await card.innerText()).toContain('Receives: suppression.created');
        expect(await endpoints(userId)).toMatchObject([
          { events: ['suppression.created'], description: 'Suppressions only' },
        ]);

        await card.getByRole('button', { name: 'Disable' }).click();
        await card.getByText('disabled', { exact: true }).waitFor();
        expect(await card.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
        await card.getByText('Enable it to send a test.').waitFor();
        expect(await endpoints(userId)).toMatchObject([{ enabled: false, disabledReason: null }]);
        await card.getByRole('button', { name: 'Enable' }).click();
        await card.getByText('enabled', { exact: true }).waitFor();
        expect(await endpoints(userId)).toMatchObject([{ enabled: true }]);

        // The test event reaches the receiver, signed so that standardwebhooks verifies it.
        const eventId = await sendTest(card);
        await receiver.waitFor(() => receiver.withId(eventId).length === 1, `the test event ${eventId}`);
        const [request] = receiver.withId(eventId);
        expect(JSON.parse(request.rawBody)).toMatchObject({ id: eventId, type: 'endpoint.test' });
        expect(verifies(secret, request)).toBe(true);
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        await card.getByRole('link', { name: 'Show its delivery' }).click();
        expect(new URL(page.url()).searchParams.get('type')).toBe('endpoint.test');
        const row = page.getByRole('row', { name: /endpoint\.test/ });
        await row.getByText('delivered', { exact: true }).waitFor();
        expect(await row.innerText()).toContain('200');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'webhooks-tested');

        // Rotation: the new secret shows at once; for 24 h requests verify with both.
        await card.getByRole('button', { name: 'Rotate secret' }).click();
        await card.getByRole('button', { name: 'Yes, rotate secret' }).click();
        await card.getByText('Secret rotated').waitFor();
        const rotated = await card.getByTestId('endpoint-secret').innerText();
        expect(rotated).not.toBe(secret);
        expect(await secretOf(userId, created.id)).toBe(rotated);
        const secondId = await sendTest(card, eventId);
        expect(secondId).not.toBe(eventId);
        await receiver.waitFor(() => receiver.withId(secondId).length === 1, `the test event ${secondId}`);
        const [second] = receiver.withId(secondId);
        expect([verifies(rotated, second), verifies(secret, second)]).toEqual([true, true]);
        await card.getByRole('button', { name: 'Hide secret' }).click();
        await card.getByTestId('endpoint-secret').waitFor({ state: 'detached' });
        await card.getByRole('button', { name: 'Reveal secret' }).click();
        expect(await card.getByTestId('endpoint-secret').innerText()).toBe(rotated);
        await screenshot(page, 'webhooks-rotated');

        await card.getByRole('button', { name: 'Delete' }).click();
        await card.getByRole('button', { name: 'Yes, delete' }).click();
        await page.getByText('No webhook endpoints yet').waitFor();
        expect(await endpoints(userId)).toEqual([]);
        await context.close();
      },
      TIMEOUT,
    );

    it(
      'lists deliveries by endpoint and type with paging (in the URL), replays one that arrives again, and shows the 409 of a disabled endpoint',
      async () => {
        const userId = newUserId();
        const [allPath, listsPath] = ['all', 'lists'].map((label) => `/hooks/${label}/${randomUUID()}`);
        const { id: everything } = await createEndpoint(t.http, userId, receiver.url(allPath));
        const { id: lists } = await createEndpoint(t.http, userId, receiver.url(listsPath), ['suppression.created']);
        for (let n = 0; n < 21; n++)
          await t.http
            .post('/user/suppressions')
            .set(bearer(userId))
            .send({ email: `s${n}@example.com` })
            .expect(201);
        const { eventId } = (
          await t.http.post(`/user/webhook-endpoints/${everything}/test`).set(bearer(userId)).expect(202)
        ).body;
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.on(listsPath)).toHaveLength(21);

        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
        await page.getByText('Page 1 of 3 · 43 deliveries').waitFor();
        await page.getByLabel('Endpoint', { exact: true }).selectOption(lists);
        await page.getByText('Page 1 of 2 · 21 deliveries').waitFor();
        expect(await page.locator('tbody tr').count()).toBe(20);
        await page.getByRole('button', { name: 'Next →' }).click();
        await page.getByText('Page 2 of 2 · 21 deliveries').waitFor();
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ endpoint: lists, page: '2' });
        await page.reload();
        await page.getByText('Page 2 of 2 · 21 deliveries').waitFor();
        expect(await page.locator('tbody tr').count()).toBe(1);

        await page.getByLabel('Endpoint', { exact: true }).selectOption(everything);
        await page.getByLabel('Type', { exact: true }).selectOption('endpoint.test');
        await page.getByText('Page 1 of 1 · 1 delivery').waitFor();
        const row = page.getByRole('row', { name: /endpoint\.test/ });
        expect(await row.innerText()).toContain(receiver.url(allPath));
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'webhooks-deliveries');

        await row.getByRole('button', { name: 'Replay' }).click();
        await row.getByText('Queued again.').waitFor();
        await receiver.waitFor(() => receiver.withId(eventId).length === 2, `the replay of ${eventId}`);
        expect(receiver.withId(eventId).map((request) => request.path)).toEqual([allPath, allPath]);

        // A disabled endpoint's delivery is not replayed: the API's problem says why.
        await t.http
          .patch(`/user/webhook-endpoints/${everything}`)
          .set(bearer(userId))
          .send({ enabled: false })
          .expect(200);
        await page.reload();
        await row.getByRole('button', { name: 'Replay' }).click();
        await row.getByRole('alert').getByText('is for a disabled endpoint; enable it to replay it.').waitFor();
        await page.getByLabel('Type', { exact: true }).selectOption('domain.verified');
        await page.getByText('No deliveries match').waitFor();
        await context.close();
      },
      TIMEOUT,
    );

    it(
      "opens a delivery's details (the body posted, each answer's status and first bytes, as text) and links to its message",
      async () => {
        const userId = newUserId();
        const path = `/hooks/details/${randomUUID()}`;
        await createEndpoint(t.http, userId, receiver.url(path), ['message.queued']);
        const hostile = '<img src=x onerror="window.__injected=1"><b>not bold</b>';
        receiver.reply = (request, attempt) =>
          request.path !== path
            ? { status: 200 }
            : attempt === 1
              ? { status: 500, body: hostile }
              : { status: 200, body: 'ok' };
        const { body: message } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
        await receiver.waitFor(() => receiver.on(path).some((r) => r.answered === 200), 'the retry answered');
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
        const row = page.getByRole('row', { name: /message\.queued/ });
        await row.getByRole('button', { name: 'Details' }).click();
        const details = page.getByTestId('delivery-details');
        await details.waitFor();
        expect(await row.getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
        expect(await details.locator('pre').first().innerText()).toBe(receiver.on(path)[0].rawBody);
        const attempts = details.getByTestId('delivery-attempt');
        expect(await attempts.count()).toBe(2);
        expect(await attempts.nth(0).innerText()).toContain('500');
        // The receiver's answer is text: shown as written, no element of it made.
        expect(await attempts.nth(0).locator('pre').innerText()).toBe(hostile);
        expect(await details.locator('img, b').count()).toBe(0);
        expect(await page.evaluate(() => (globalThis as { __injected?: number }).__injected)).toBeUndefined();
        expect(await attempts.nth(1).innerText()).toContain('200');
        expect(await attempts.nth(1).locator('pre').innerText()).toBe('ok');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'webhooks-delivery-details');

        await row.getByRole('link', { name: 'Its message' }).click();
        await page.waitForURL(`**/console/messages/${message.id}`);
        await context.close();
      },
      TIMEOUT,
    );

    it(
      'shows a read-only key every change as not allowed, 375 px wide',
      async () => {
        const userId = newUserId();
        const path = `/hooks/read-only/${randomUUID()}`;
        const { id } = await createEndpoint(t.http, userId, receiver.url(path));
        await t.http.post(`/user/webhook-endpoints/${id}/test`).set(bearer(userId)).expect(202);
        await t.http.post(`/user/webhook-endpoints/${id}/test`).set(bearer(userId)).expect(202);
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        const { key } = await newApiKey(t, userId, ['read']);
        const { context, page } = await newConsolePage(served.browser, 375);
        await signIn(page, served.baseUrl, key, '/console/webhooks');
        const card = page.getByRole('article', { name: receiver.url(path) });
        await page
          .getByRole('row', { name: /endpoint\.test/ })
          .nth(1)
          .waitFor();

        expect(await page.getByRole('button', { name: 'Add endpoint' }).isDisabled()).toBe(true);
        // Each of the card's controls is disabled and described by the one reason the card shows.
        const reason = 'Not allowed: this API key lacks the keys scope (it has read).';
        for (const name of ['Edit', 'Disable', 'Send test', 'Delete', 'Reveal secret', 'Rotate secret']) {
          const button = card.getByRole('button', { name });
          expect(await button.isDisabled()).toBe(true);
          const describedBy = await button.getAttribute('aria-describedby');
          expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(reason);
        }
        expect(await card.getByText(reason).count()).toBe(1);
        // Replay's reason is said once for the list (issue 27: it was repeated in every row), and describes each Replay.
        const sendReason = 'Not allowed: this API key lacks the send scope (it has read).';
        expect(await page.getByText(sendReason).count()).toBe(1);
        for (const replay of await page.getByRole('button', { name: 'Replay' }).all()) {
          expect(await replay.isDisabled()).toBe(true);
          const describedBy = await replay.getAttribute('aria-describedby');
          expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(sendReason);
        }
        expect(await pageWidth(page)).toBeLessThanOrEqual(375);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, 'webhooks-read-only-375');
        await context.close();
      },
      TIMEOUT,
    );

    it(
      'says in words that an endpoint was disabled for failing, and shows a key without read the page as not allowed',
      async () => {
        const userId = newUserId();
        const url = receiver.url(`/hooks/failing/${randomUUID()}`);
        const { id } = await createEndpoint(t.http, userId, url);
        // What the worker writes after WEBHOOK_DISABLE_AFTER_SECONDS of failures (docs/delivery-and-deliverability.md#webhooks), without waiting days.
        await t.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing' WHERE id = $1`, [
          id,
        ]);
        const { context, page } = await newConsolePage(served.browser);
        await signIn(page, served.baseUrl, tokenFor(userId), '/console/webhooks');
        const card = page.getByRole('article', { name: url });
        await card.getByText('Disabled automatically: every attempt to it failed for days.').waitFor();
        expect(await card.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
        await card.getByRole('button', { name: 'Enable' }).click();
        await card.getByText('enabled', { exact: true }).waitFor();
        expect(await card.getByText('Disabled automatically').count()).toBe(0);
        const { body } = await t.http.get(`/user/webhook-endpoints/${id}`).set(bearer(userId)).expect(200);
        expect(body).toMatchObject({ enabled: true, disabledReason: null });
        await context.close();

        // Listing needs read: a send-only key is told so for both lists, not shown a failure.
        const { key } = await newApiKey(t, userId, ['send']);
        const other = await newConsolePage(served.browser);
        await signIn(other.page, served.baseUrl, key, '/console/webhooks');
        // The two lists answer on their own: each one's refusal is waited for.
        await other.page.getByText('Not allowed', { exact: true }).nth(1).waitFor();
        expect(await other.page.getByText('Not allowed', { exact: true }).count()).toBe(2);
        expect(await other.page.getByText('Something went wrong').count()).toBe(0);
        expect(await seriousAxeViolations(other.page)).toEqual([]);
        await screenshot(other.page, 'webhooks-send-only');
        await other.context.close();
      },
      TIMEOUT,
    );
  },
);
