// Signing (docs/delivery-and-deliverability.md#webhooks): every event signed the Standard Webhooks way, with a secret per user that
// survives restarts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';
import { header, verifies } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, SIGNING_KEY, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { secretOf } from '../../support/webhooks/webhook-endpoints';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('webhook events (ROLE=all, private networks allowed)', () => {
  const { receiver, t, send } = bootWebhookApp(TO_LOOPBACK);

  describe('signature', () => {
    it(
      'signs every event the Standard Webhooks way with the secret GET /user/webhook-secret serves its user',
      async () => {
        const userId = newUserId('sig');
        const path = newPath('sig');
        await send(userId, { webhook: { url: receiver.url(path) } });
        await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 3, 'three events');
        const secret = await secretOf(t.http, userId);
        const otherSecret = await secretOf(t.http, newUserId('other'));
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
        expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
        expect(otherSecret).not.toBe(secret);

        const requests = receiver.on(path);
        expect(requests).toHaveLength(3);
        expect(new Set(requests.map((r) => header(r, 'webhook-id'))).size).toBe(3);
        for (const request of requests) {
          expect(request.method).toBe('POST');
          expect(header(request, 'content-type')).toMatch(/^application\/json/);
          expect(header(request, 'webhook-id')).toMatch(UUID);
          const timestamp = header(request, 'webhook-timestamp');
          expect(timestamp).toMatch(/^\d{10}$/);
          expect(Math.abs(Number(timestamp) - request.receivedAt / 1000)).toBeLessThan(10);
          expect(header(request, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

          const id = header(request, 'webhook-id');
          const signature = header(request, 'webhook-signature');
          expect(verifies(secret, id, timestamp, request.rawBody, signature)).toBe(true);
          // Anything changed, and it no longer verifies.
          const tampered = request.rawBody.replace('"message.', '"massage.');
          expect(tampered).not.toBe(request.rawBody);
          expect(verifies(secret, id, timestamp, tampered, signature)).toBe(false);
          expect(verifies(secret, id, timestamp, `${request.rawBody} `, signature)).toBe(false);
          expect(verifies(secret, randomUUID(), timestamp, request.rawBody, signature)).toBe(false);
          expect(verifies(secret, id, String(Number(timestamp) + 1), request.rawBody, signature)).toBe(false);
          expect(verifies(otherSecret, id, timestamp, request.rawBody, signature)).toBe(false);
        }
      },
      TIMEOUT,
    );
  });
});

describe('the signing secret', () => {
  const opened: TestApp[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const app of opened.splice(0)) await app.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  const boot = async (env: Record<string, string>) => {
    const app = await bootTestApp(env);
    opened.push(app);
    return app;
  };

  it(
    'is per user, stable across calls, and across a restart with the same WEBHOOK_SIGNING_KEY',
    async () => {
      const ada = newUserId('ada');
      const grace = newUserId('grace');
      const first = await boot({ WEBHOOK_SIGNING_KEY: SIGNING_KEY });
      const adas = await secretOf(first.http, ada);
      expect(await secretOf(first.http, ada)).toBe(adas);
      expect(await secretOf(first.http, grace)).not.toBe(adas);
      await first.close();
      opened.splice(opened.indexOf(first), 1);

      const restarted = await boot({ WEBHOOK_SIGNING_KEY: SIGNING_KEY });
      expect(await secretOf(restarted.http, ada)).toBe(adas);
      const otherKey = await boot({ WEBHOOK_SIGNING_KEY: `${SIGNING_KEY}-rotated` });
      expect(await secretOf(otherKey.http, ada)).not.toBe(adas);
    },
    TIMEOUT,
  );

  it(
    'without WEBHOOK_SIGNING_KEY, is kept in DATA_DIR across a restart',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-webhook-key-'));
      dirs.push(dataDir);
      const userId = newUserId('keyfile');
      const first = await boot({ DATA_DIR: dataDir });
      const secret = await secretOf(first.http, userId);
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const again = await boot({ DATA_DIR: dataDir });
      expect(await secretOf(again.http, userId)).toBe(secret);
      const elsewhere = await boot({});
      expect(await secretOf(elsewhere.http, userId)).not.toBe(secret);
    },
    TIMEOUT,
  );
});
