import type TestAgent from 'supertest/lib/agent';
import { bearer } from './tokens';

/**
 * Polls GET /user/messages/{id} until the message has `status`; returns it with its history. Fails
 * once its history has not grown for `timeoutMs`: each step (sending, deferred...) is progress.
 */
export async function waitForStatus(http: TestAgent, userId: string, id: string, status: string, timeoutMs = 20_000) {
  let steps = -1;
  let deadline = 0;
  for (;;) {
    const { body } = await http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200);
    if (body.status === status) return body;
    const now = (body.statusHistory as unknown[] | undefined)?.length ?? 0;
    if (now !== steps) [steps, deadline] = [now, Date.now() + timeoutMs];
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

/**
 * Polls `read` until `done` holds for what it read; fails naming `what` only once what it reads
 * has not changed for `stallMs`. A backlog that drains slowly on a busy machine is waited for (each
 * change is progress), one that stopped draining is not. Returns the last value read.
 */
export async function waitWhileChanging<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  stallMs = 20_000,
): Promise<T> {
  let seen: string | undefined;
  let changedAt = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    const now = JSON.stringify(value);
    if (now !== seen) [seen, changedAt] = [now, Date.now()];
    else if (Date.now() - changedAt > stallMs)
      throw new Error(`No progress for ${stallMs} ms waiting for ${what}; still at ${now.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
