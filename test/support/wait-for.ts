import type TestAgent from 'supertest/lib/agent';
import { bearer } from './tokens';

/** Polls GET /user/messages/{id} until the message has `status`; returns it with its history. */
export async function waitForStatus(http: TestAgent, userId: string, id: string, status: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200);
    if (body.status === status) return body;
    if (Date.now() > deadline)
      throw new Error(`Message ${id} is ${body.status}, not ${status}: ${JSON.stringify(body.statusHistory)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `condition` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls an asynchronous `condition` (a database read, say) until it holds; fails naming `what` after `timeoutMs`. */
export async function waitForAsync(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
