// Large bodies are read one at a time per process, and the rest wait unread in their sockets
// (docs/api.md#sending); the rate limit counts a waiting request only once its turn comes, so one whose
// user's minute ran out meanwhile is refused (429) with its body unread. Clients are node:http
// requests that send part of a body and pause: a server that needed the rest would never answer.
import { ClientRequest, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Slots } from '../../src/platform/slots';
import { sendBody } from '../support/factories';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitFor } from '../support/wait-for';

const MiB = 1024 * 1024;
const LIMIT = 3;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes of the body the client had written when the answer came. */
  sentWhenAnswered: number;
}

/** A POST that writes `body` up to `pauseAt` bytes, then waits for `finish()` to write the rest. */
function pausedPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  pauseAt: number,
): { answer: Promise<Answer>; finish(): void } {
  let sent = 0;
  let answered = false;
  let request: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    request = httpRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      },
      (response) => {
        answered = true;
        const sentWhenAnswered = sent;
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode!, headers: response.headers, body: text, sentWhenAnswered });
        });
      },
    );
    request.on('error', (error) => answered || reject(error));
  });
  const write = (upTo: number) => {
    for (let at = sent; at < upTo; at += 64 * 1024) request.write(body.subarray(at, Math.min(upTo, at + 64 * 1024)));
    sent = upTo;
  };
  write(pauseAt);
  return { answer, finish: () => (write(body.length), request.end()) };
}

const batchBody = (htmlBytes: number) =>
  Buffer.from(JSON.stringify({ messages: [sendBody({ html: `<p>${'a'.repeat(htmlBytes)}</p>` })] }));

describe('large bodies, one at a time', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  it('keeps a waiting body unread and uncounted, and refuses it unread once the minute ran out meanwhile', async () => {
    // Watches the turns being asked for, calling through: the only signal that a request waits.
    const taken = jest.spyOn(Slots.prototype, 'take');
    // The first taker is the turn's (uploads have places of their own).
    const turnsAsked = () => taken.mock.contexts.filter((slots) => slots === taken.mock.contexts[0]).length;
    const userId = newUserId();

    // Another user's large body has the turn, and holds it while its client pauses.
    const first = pausedPost(`${base}/sender/send/batch`, bearer(newUserId()), batchBody(1.5 * MiB), MiB);
    await waitFor(() => turnsAsked() === 1, 'the first body to ask for its turn');
    // The user's 19 MiB batch waits for the turn, two megabytes of it sent.
    const second = pausedPost(`${base}/sender/send/batch`, bearer(userId), batchBody(19 * MiB), 2 * MiB);
    await waitFor(() => turnsAsked() === 2, 'the second body to ask for its turn');
    // A body without a valid token does not wait for the turn: it is refused from its headers, unread.
    const anonymous = await pausedPost(
      `${base}/sender/send/batch`,
      { Authorization: 'Bearer nonsense' },
      batchBody(19 * MiB),
      2 * MiB,
    ).answer;
    expect(anonymous.status).toBe(401);
    expect(anonymous.sentWhenAnswered).toBe(2 * MiB);
    expect(turnsAsked()).toBe(2);
    // Uploads keep their own places: a 1.5 MiB file does not wait for the turn either.
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1.5 * MiB, 0x61)]), 'large.bin');
    expect(
      (await fetch(`${base}/attachments`, { method: 'POST', headers: bearer(newUserId()), body: form })).status,
    ).toBe(201);
    expect(turnsAsked()).toBe(2);
    // Small bodies do not wait for the turn.
    const small = await fetch(`${base}/sender/send`, {
      method: 'POST',
      headers: { ...bearer(newUserId()), 'Content-Type': 'application/json' },
      body: JSON.stringify(sendBody()),
    });
    expect(small.status).toBe(201);
    // The user's whole minute goes to lists: the waiting batch has not counted.
    for (let left = LIMIT - 1; left >= 0; left--) {
      const listed = await fetch(`${base}/user/messages`, { headers: bearer(userId) });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('ratelimit-remaining')).toBe(String(left));
    }

    first.finish();
    expect((await first.answer).status).toBe(201);
    const refused = await second.answer;
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429 });
    // Answered with 17 of its 19 MiB never sent: the body was not read.
    expect(refused.sentWhenAnswered).toBe(2 * MiB);
    expect(refused.headers.connection).toBe('close');
  });

  it('lets no public route hold the turn: a trickled unsubscribe body leaves large sends going', async () => {
    // A chunked body (no declared length) counts as large; this one sends one byte and waits.
    const trickle = httpRequest(`${base}/unsubscribe/${'0'.repeat(54)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
    });
    trickle.on('error', () => undefined);
    trickle.write('L');
    try {
      // Two large batches, one after the other: each needs the turn, which the trickle must not hold.
      for (let i = 0; i < 2; i++) {
        const large = pausedPost(`${base}/sender/send/batch`, bearer(newUserId()), batchBody(1.5 * MiB), 0);
        large.finish();
        expect((await large.answer).status).toBe(201);
      }
    } finally {
      trickle.destroy();
    }
  });
});
