// Fair turns in the webhook slots (docs/delivery-and-deliverability.md#webhooks, docs/delivery-and-deliverability.md#webhooks): one user's endpoints that never answer, with a
// backlog of events, must not hold every slot. WEBHOOK_TIMEOUT_MS is long, so each post to them
// holds its slot for the whole test; another user's events must still be delivered, and before
// any of the hanging posts has ended (so not in a slot one of them gave back).
import { createEndpoint, typesAt } from '../../support/webhook-endpoints/endpoint-support';
import { newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const HANGING_ENDPOINTS = 20;
const HANGING_MESSAGES = 5;
const PROMPT_MESSAGES = 4;
const HOLD_MS = 120_000;

describe('webhook slots: fair turns across users and endpoints', () => {
  const { receiver, t, send } = bootWebhookApp({ ...TO_LOOPBACK, WEBHOOK_TIMEOUT_MS: String(HOLD_MS) });
  const releases: (() => void)[] = [];
  afterEach(() => releases.splice(0).forEach((release) => release()));

  it(
    "delivers one user's events while another's endpoints hold posts that never answer",
    async () => {
      const hanging = newUserId('hanging');
      const prompt = newUserId('prompt');
      const hangingPrefix = `/hooks/hanging-${hanging}`;
      receiver.reply = (request) =>
        request.path.startsWith(hangingPrefix)
          ? new Promise((resolve) => releases.push(() => resolve({ status: 200 })))
          : { status: 200 };
      for (let i = 0; i < HANGING_ENDPOINTS; i++)
        await createEndpoint(t.http, hanging, receiver.url(`${hangingPrefix}/${i}`));
      const promptPath = newPath('prompt');
      await createEndpoint(t.http, prompt, receiver.url(promptPath));

      // The hanging user's backlog first: 3 events a message, to each of its endpoints.
      const backlog = await Promise.all(Array.from({ length: HANGING_MESSAGES }, () => send(hanging)));
      for (const { id } of backlog) await waitForStatus(t.http, hanging, id, 'sent', 60_000);
      await receiver.waitFor(
        () => receiver.requests.filter((r) => r.path.startsWith(hangingPrefix)).length >= 8,
        'posts to the hanging endpoints',
      );
      const promptStarted = Date.now();
      const accepted = await Promise.all(Array.from({ length: PROMPT_MESSAGES }, () => send(prompt)));
      for (const { id } of accepted) await waitForStatus(t.http, prompt, id, 'sent', 60_000);

      // Every event of the prompt user, while no hanging post has ended (the timeout is far off).
      const expected = PROMPT_MESSAGES * 3;
      await receiver.waitFor(
        () => receiver.on(promptPath).length >= expected,
        `${expected} events at the other user's endpoint`,
        HOLD_MS - 30_000,
      );
      const hangingPosts = receiver.requests.filter((r) => r.path.startsWith(hangingPrefix));
      const lastArrived = Math.max(...receiver.on(promptPath).map((r) => r.receivedAt));
      process.stdout.write(
        `fair-turns: ${expected} events of the other user delivered ${lastArrived - promptStarted} ms after its first send, ` +
          `while ${hangingPosts.length} posts to the hanging user's endpoints were held\n`,
      );
      expect(hangingPosts.filter((r) => r.answered !== undefined || r.clientGone)).toEqual([]);
      expect(typesAt(receiver, promptPath)).toEqual(
        ['message.queued', 'message.sending', 'message.sent'].flatMap((type) => Array(PROMPT_MESSAGES).fill(type)),
      );
      // The hanging user holds its share of the 32 slots, and no more: half, 8 to one endpoint at most.
      expect(hangingPosts.length).toBeLessThanOrEqual(16);
      const perEndpoint = new Map<string, number>();
      for (const post of hangingPosts) perEndpoint.set(post.path, (perEndpoint.get(post.path) ?? 0) + 1);
      expect(Math.max(...perEndpoint.values())).toBeLessThanOrEqual(8);
    },
    TIMEOUT * 2,
  );
});
