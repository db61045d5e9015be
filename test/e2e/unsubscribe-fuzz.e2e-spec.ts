// Property-based fuzzing of the unsubscribe routes (docs/delivery-and-deliverability.md): whatever the token path, method,
// Accept header and body, the answer is never a 5xx; only the very token the app made (in any
// case) unsubscribes, and only its own recipient; a body over 1 KiB is a 413 that changes nothing.
// A failure prints fast-check's seed and path, to replay with fc.assert's { seed, path }.
import fc from 'fast-check';
import type { Response } from 'supertest';
import { bootTestApp, TestApp } from '../support/test-app';
import { newUserId } from '../support/tokens';
import { bulkMessage, suppressionsOf, unsubscribeTokens } from '../support/unsubscribe/unsubscribe-support';

const RUNS = 600;
const MAX_BODY_BYTES = 1024;

describe('hostile input to /unsubscribe/{token} (property-based)', () => {
  let t: TestApp;
  let valid: string;
  const userId = newUserId('unsub-fuzz');
  const statuses = new Map<number, number>();
  let posted = false;

  beforeAll(async () => {
    t = await bootTestApp();
    const message = await bulkMessage(t.db, userId, { to: ['fuzz@example.com'] });
    valid = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({ messageId: message.id, recipient: 0 });
  });
  afterAll(async () => {
    console.log(
      `unsubscribe fuzz: ${[...statuses]
        .sort()
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}`,
    );
    await t?.close();
  });

  /** The path segment, as it goes on the wire. */
  const segment = (): fc.Arbitrary<{ family: string; wire: string }> =>
    fc.oneof(
      fc.constant({ family: 'valid', wire: valid }),
      fc.constant({ family: 'valid, in capitals', wire: valid.toUpperCase() }),
      // The valid token with one character changed, dropped or added.
      fc
        .tuple(fc.nat(53), fc.constantFrom(...'0123456789abcdefG%-'), fc.constantFrom('change', 'drop', 'add'))
        .map(([at, c, how]) => ({
          family: `mutated (${how})`,
          wire: valid.slice(0, at) + (how === 'drop' ? '' : c) + valid.slice(how === 'add' ? at : at + 1),
        })),
      fc.stringMatching(/^[0-9a-f]{0,120}$/).map((hex) => ({ family: 'hex of any length', wire: hex })),
      fc
        .string({ unit: 'binary', maxLength: 200 })
        .map((text) => ({ family: 'any text, escaped', wire: encodeURIComponent(text) })),
      // Printable ASCII as it stands: stray %, dots, slashes, ? and # included.
      fc
        .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 })
        .map((raw) => ({ family: 'raw ASCII', wire: raw })),
      fc
        .constantFrom('%', '%ZZ', '%00', '..', '.', '%2e%2e', '%2F', 'con', '__proto__', 'constructor')
        .map((wire) => ({ family: 'tricky', wire })),
    );

  const accept = fc.constantFrom(
    undefined,
    'text/html',
    'application/json',
    '*/*',
    'text/html;q=0, */*',
    'image/png',
    ';;;,=',
    'text/html,application/xhtml+xml,*/*;q=0.8',
  );
  const body = fc.option(
    fc.record({
      type: fc.constantFrom(
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json',
        'text/plain; charset=utf-16',
        'application/octet-stream',
        '%%%',
      ),
      content: fc.oneof(
        fc.constant('List-Unsubscribe=One-Click'),
        fc.string({ unit: 'binary', maxLength: 600 }),
        // Around the limit, in one-byte and two-byte characters.
        fc.integer({ min: MAX_BODY_BYTES - 8, max: MAX_BODY_BYTES + 8 }).map((n) => 'a'.repeat(n)),
        fc.integer({ min: MAX_BODY_BYTES / 2 - 4, max: MAX_BODY_BYTES / 2 + 4 }).map((n) => 'é'.repeat(n)),
      ),
    }),
    { nil: undefined },
  );

  it('never answers with a 5xx, and unsubscribes only for the token it made', async () => {
    await fc.assert(
      fc.asyncProperty(
        segment(),
        fc.constantFrom('get', 'post'),
        accept,
        body,
        async ({ wire }, method, acceptHeader, sent) => {
          let request = t.http[method](`/unsubscribe/${wire}`);
          if (acceptHeader !== undefined) request = request.set('Accept', acceptHeader);
          if (method === 'post' && sent) request = request.set('Content-Type', sent.type).send(sent.content);
          const response: Response = await request;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);

          expect(response.status).toBeLessThan(500);
          const named = wire.toLowerCase() === valid;
          // A segment of these characters surely reaches the route. With others the client or
          // the router may take it elsewhere (an empty one, a slash, a query, a fragment, a dot
          // segment, a backslash read as a slash, a malformed escape): some other 404, or the route's own answer.
          const routed = /^[^/?#.%\\]+$/.test(wire);
          const tooLarge = method === 'post' && sent !== undefined && Buffer.byteLength(sent.content) > MAX_BODY_BYTES;
          if (!routed) expect([404, 413]).toContain(response.status);
          else if (tooLarge) expect(response.status).toBe(413);
          else if (named) {
            expect(response.status).toBe(200);
            posted ||= method === 'post';
          } else expect([400, 404]).toContain(response.status);
          if (response.status >= 400)
            expect(response.headers['content-type']).toMatch(
              /^(application\/problem\+json|text\/html)(; charset=utf-8)?$/,
            );
          if (response.status === 400) expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        },
      ),
      { numRuns: RUNS },
    );

    // Whatever came, the owner's list holds at most the one recipient the token names, unsubscribed.
    const entries = await suppressionsOf(t.http, userId);
    expect(entries.map(({ email, reason }) => ({ email, reason }))).toEqual(
      posted ? [{ email: 'fuzz@example.com', reason: 'unsubscribe' }] : [],
    );
  }, 120_000);

  it('answers a token path over the 16 KiB of headers Node reads with a 431 problem', async () => {
    const response = await t.http.post(`/unsubscribe/${valid.repeat(320)}`);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });
});
