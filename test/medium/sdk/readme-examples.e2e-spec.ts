// The TypeScript examples of packages/sdk/README.md and of the README's tour, run in order against
// the real app (ROLE=all, delivering to an SMTP sink, posting webhooks to a receiver on loopback):
// what a reader brings (an API key, a token, a webhook's body and its secret) is real, and the
// server's address is swapped for the app's.
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/child-processes';
import { baseUrlOf, sdkAs } from '../../support/sdk';
import { runExamples, typescriptExamples } from '../../support/sdk-examples';
import { newUserId, tokenFor } from '../../support/tokens';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const PDF = Buffer.from('%PDF-1.4 an invoice', 'latin1');

describe('the TypeScript examples of the READMEs', () => {
  const { receiver, t } = bootWebhookApp(TO_LOOPBACK);
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await baseUrlOf(t);
  }, TIMEOUT);

  it(
    "packages/sdk/README.md's, in order: they send, upload, list, read the audit log, handle a 400 and verify a real webhook",
    async () => {
      const userId = newUserId('sdk-readme');
      const owner = sdkAs(baseUrl, userId);
      const { key } = await owner.apiKeys.create({ name: 'README' });
      const path = newPath('sdk-readme');
      const endpoint = await owner.webhookEndpoints.create({ url: receiver.url(path) });
      const warmUp = await owner.emails.send({
        sender: 'billing@example.com',
        to: ['ada@example.com'],
        subject: 'Before the examples',
        text: 'Hello',
      });
      await receiver.waitFor(
        () => receiver.on(path).some((r) => r.answered === 200 && r.rawBody.includes('"message.sent"')),
        'message.sent',
      );
      const webhook = receiver.on(path).find((r) => r.rawBody.includes('"message.sent"'))!;

      const printed = await runExamples(
        typescriptExamples(join(PROJECT_ROOT, 'packages/sdk/README.md')),
        {
          process: {
            env: { MAILROOM_API_KEY: key, MAILROOM_TOKEN: tokenFor(userId), MAILROOM_WEBHOOK_SECRET: endpoint.secret },
          },
          invoicePdf: PDF,
          rawBody: webhook.rawBody,
          request: { headers: webhook.headers },
        },
        { 'https://mail.example.com': baseUrl },
      );

      const { messages } = await owner.emails.list({ take: 10 });
      expect(messages.map((m) => m.subject)).toEqual(['Your invoice, attached', 'Your invoice', 'Before the examples']);
      const attached = await owner.emails.content(messages[0].id);
      expect(attached.attachments).toMatchObject([
        { fileName: 'invoice.pdf', contentType: 'application/pdf', size: PDF.length },
      ]);
      // The list examples print nothing failed; the audit log's prints the key made above.
      expect(printed).toEqual([
        expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ ${userId} \\S+ README$`)),
        expect.stringMatching(/^400 Bad Request The request has 1 invalid field\. \S+$/),
        expect.stringMatching(/^to /),
        `sent ${warmUp.id}`,
      ]);
    },
    TIMEOUT,
  );

  it(
    "README.md's tour, as `npm start`'s first user: it sends and lists",
    async () => {
      const userId = newUserId('readme-tour');
      const printed = await runExamples(
        typescriptExamples(join(PROJECT_ROOT, 'README.md')),
        { process: { env: { TOKEN: tokenFor(userId) } } },
        { 'http://localhost:3000': baseUrl },
      );

      expect(printed).toEqual(['queued 1']);
      const { messages } = await sdkAs(baseUrl, userId).emails.list();
      expect(messages).toMatchObject([{ subject: 'Hello', to: ['grace@example.com'] }]);
    },
    TIMEOUT,
  );
});
