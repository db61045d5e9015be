import { Page } from 'playwright-core';
import { appInBrowser, BROWSER_TIMEOUT, describeInBrowser } from '../support/browser';
import { storeMessage } from '../support/factories';
import { bearer, newUserId, tokenFor } from '../support/tokens';

describeInBrowser('Swagger UI browser tests')('Swagger UI in a browser (docs/api.md#routes)', () => {
  const { t, served } = appInBrowser();

  /** A context of its own per test: persistAuthorization keeps a token in localStorage. */
  const openDocs = async (): Promise<Page> => {
    const page = await (await served.browser.newContext()).newPage();
    // A missing element fails with Playwright's message well before jest's timeout.
    page.setDefaultTimeout(15_000);
    await page.goto(`${served.baseUrl}/docs`);
    return page;
  };

  /** `scheme`: the JWT's (`bearer`) or the API key's (`api-key`), each with a form of its own in the dialog. */
  const authorize = async (page: Page, token: string, scheme = 'bearer'): Promise<void> => {
    await page.locator('.auth-wrapper button.authorize').click();
    const form = page
      .locator('.auth-container')
      .filter({ has: page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
    await form.locator('input[type="text"]').fill(token);
    await form.locator('.auth-btn-wrapper button.authorize').click();
    await form.locator('.auth-btn-wrapper button.btn-done').click();
  };

  /**
   * Opens an operation's panel, presses "Try it out" and Execute, changing nothing that Swagger UI
   * filled in from the document; the status and body as the page shows them.
   */
  const tryItOut = async (
    page: Page,
    method: 'get' | 'post',
    path: string,
  ): Promise<{ status: string; body: unknown }> => {
    const operation = page.locator(`.opblock-${method}`).filter({ has: page.locator(`[data-path="${path}"]`) });
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('button.execute').click();
    const response = operation.locator('.live-responses-table tbody tr.response');
    return {
      status: (await response.locator('.response-col_status').innerText()).trim(),
      body: JSON.parse(await response.locator('.highlight-code pre').innerText()),
    };
  };

  const executeListMessages = (page: Page) => tryItOut(page, 'get', '/user/messages');

  it(
    'lists the messages of the user whose token was pasted into Authorize',
    async () => {
      const userId = newUserId();
      const stored = await storeMessage(t.db, userId);
      const page = await openDocs();

      await authorize(page, tokenFor(userId));
      const { status, body } = await executeListMessages(page);

      expect(status).toBe('200');
      expect(body).toMatchObject({
        messages: [expect.objectContaining({ id: stored.id, subject: stored.subject, userId })],
        page: 1,
        total: 1,
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "sends the example of POST /sender/send as given, then lists that message with the list's own examples",
    async () => {
      const userId = newUserId();
      const page = await openDocs();
      await authorize(page, tokenFor(userId));

      const sent = await tryItOut(page, 'post', '/sender/send');
      const listed = await executeListMessages(page);

      expect(sent).toMatchObject({ status: '201', body: { userId, status: 'queued' } });
      const { id } = sent.body as { id: string };
      expect(listed).toMatchObject({
        status: '200',
        body: { messages: [expect.objectContaining({ id, userId })], total: 1 },
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    'lists the messages of the user whose API key was pasted into Authorize',
    async () => {
      const userId = newUserId();
      const stored = await storeMessage(t.db, userId);
      const { body: created } = await t.http
        .post('/user/api-keys')
        .set(bearer(userId))
        .send({ name: 'docs', scopes: ['read'] })
        .expect(201);
      const page = await openDocs();

      await authorize(page, `Bearer ${created.key}`, 'api-key');
      const { status, body } = await executeListMessages(page);

      expect(status).toBe('200');
      expect(body).toMatchObject({ messages: [expect.objectContaining({ id: stored.id, userId })], total: 1 });
    },
    BROWSER_TIMEOUT,
  );

  it(
    'shows a 401 when Execute is pressed without authorizing',
    async () => {
      const page = await openDocs();

      const { status, body } = await executeListMessages(page);

      expect(status).toBe('401');
      expect(body).toMatchObject({ status: 401, title: 'Unauthorized' });
    },
    BROWSER_TIMEOUT,
  );
});
