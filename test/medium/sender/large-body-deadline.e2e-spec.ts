// A body that trickles in cannot hold what other users wait for (issue 33, item 6): once its
// reading begins it has BODY_READ_TIMEOUT_MS (set small here) to arrive whole, or it is refused
// with 408 as an RFC 9457 problem and its large-body turn or upload place goes to the next user;
// and one user's uploads hold at most one of the two upload places. The tricklers are node:http
// clients writing one byte every 200 ms on real sockets.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const MiB = 1024 * 1024;
const BODY_READ_TIMEOUT_MS = 4000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A POST declaring `declared` bytes that sends `head` and then one byte every 200 ms, until answered. */
function trickle(url: string, headers: Record<string, string>, head: Buffer, declared: number) {
  let answered = false;
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(declared) } },
      (response) => {
        answered = true;
        clearInterval(timer);
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      },
    );
    request.on('error', (error) => answered || reject(error));
    request.write(head);
    let sent = head.length;
    // Stops short of the declared length: the body never comes whole.
    timer = setInterval(() => sent < declared - 1 && (request.write('a'), sent++), 200);
    request.on('close', () => clearInterval(timer));
  });
  return { answer, answered: () => answered };
}

/** A multipart upload of one file named `file`: the body's head (boundary and part headers) and its length with `bytes` of file. */
function uploadHead(bytes: number): { head: Buffer; length: number; contentType: string } {
  const boundary = 'trickle-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  return { head, length: head.length + bytes + tail.length, contentType: `multipart/form-data; boundary=${boundary}` };
}

function expect408(answer: Answer): void {
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({
    status: 408,
    title: 'Request Timeout',
    detail: expect.stringMatching(/did not arrive within 4 s/),
  });
}

describe('a trickled body holds no turn past its deadline', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await bootTestApp({
      BODY_READ_TIMEOUT_MS: String(BODY_READ_TIMEOUT_MS),
      MAX_ATTACHMENT_BYTES: String(3 * MiB),
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it("cuts off one tenant's trickled 2 MiB send with 408 and serves another tenant's 1.5 MiB batch", async () => {
    const slow = trickle(
      `${base}/sender/send`,
      { ...bearer(newUserId('trickler')), 'Content-Type': 'application/json' },
      Buffer.from('{"subject":"slow","html":"'),
      2 * MiB,
    );
    // Another tenant's large batch, sent at once: it waits for the turn the trickle holds.
    const batch = await fetch(`${base}/sender/send/batch`, {
      method: 'POST',
      headers: { ...bearer(newUserId('patient')), 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [sendBody({ html: `<p>${'b'.repeat(1.5 * MiB)}</p>` })] }),
    });

    expect(batch.status).toBe(201);
    expect408(await slow.answer);
  }, 60_000);

  it("serves another user's upload while one user trickles two, and cuts the trickles off with 408", async () => {
    const user = bearer(newUserId('slow-uploads'));
    const { head, length, contentType } = uploadHead(2 * MiB);
    const slow = [0, 1].map(() =>
      trickle(`${base}/attachments`, { ...user, 'Content-Type': contentType }, head, length),
    );
    // The first trickle has one place; the user's second waits behind it, and the other place is another user's.
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1.5 * MiB, 0x61)]), 'large.bin');
    const upload = await fetch(`${base}/attachments`, { method: 'POST', headers: bearer(newUserId()), body: form });

    expect(upload.status).toBe(201);
    // Taken while both trickles were still unanswered: not after a deadline freed a place.
    expect(slow.map((s) => s.answered())).toEqual([false, false]);
    for (const s of slow) expect408(await s.answer);
  }, 60_000);
});
