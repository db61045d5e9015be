// Refusals (docs/api.md#errors, docs/api.md#sending): the keys accepted and refused, and a refused first request stores no key.
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../../support/factories';
import { bearer, newUserId } from '../../../support/tokens';
import { bootTwoApiProcesses, MAX_ATTACHMENT_BYTES } from '../../../support/idempotency/two-api-processes';

/** docs/api.md#sending: Idempotency-Key on POST /sender/send, on two API processes sharing one database. */
describe('Idempotency-Key on POST /sender/send', () => {
  const { t, send, newKey, messagesOf, keysOf, expectProblem, expectFirstAnswer, expectReplayOf } =
    bootTwoApiProcesses();

  describe('the key itself', () => {
    it.each([
      ['one character', 'k'],
      ['255 visible ASCII characters', '~!#$%&*+-./:;<=>?@[]^_`{|}"\'()'.padEnd(255, 'x')],
      ['a UUID', '0f8fad5b-d9cb-469f-a165-70867728950e'],
      ['inner spaces', 'order 42 attempt 1'],
    ])('accepts %s', async (_case, key) => {
      const userId = newUserId();
      const first = await send(userId, sendBody(), key);
      expectFirstAnswer(first);
      expectReplayOf(await send(userId, sendBody(), key), first);
      const [stored] = await t.db.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [userId]);
      expect(stored.key).toBe(key);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'x'.repeat(256)],
      ['a non-ASCII character', 'café'],
      ['a latin-1 control character', 'a\u0085b'],
      ['a tab', 'a\tb'],
    ])('refuses a key that is %s with 400 naming the header, and writes nothing', async (_case, key) => {
      const userId = newUserId();

      const response = await send(userId, sendBody(), key);

      expectProblem(response, 400, 'Bad Request');
      expect(response.body.errors[0].field).toBe('Idempotency-Key');
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('an invalid key with an invalid body', () => {
    it('is listed beside the failing fields of the body (docs/api.md#errors: every failing field)', async () => {
      const userId = newUserId();

      const response = await send(userId, sendBody({ subject: '', to: [] }), 'x'.repeat(256));

      expectProblem(response, 400, 'Bad Request');
      expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'Idempotency-Key',
        'subject',
        'to',
      ]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('a refused first request', () => {
    const upload = async (userId: string, bytes: number): Promise<string> => {
      const { body } = await t.http
        .post('/attachments')
        .set(bearer(userId))
        .attach('file', Buffer.alloc(bytes, 1), 'data.bin')
        .expect(201);
      return body.id;
    };

    const refusals: [string, number, (userId: string) => Record<string, unknown> | Promise<Record<string, unknown>>][] =
      [
        ['400 for an invalid body', 400, () => sendBody({ to: ['not-an-address'] })],
        [
          '400 for an unknown stored attachment',
          400,
          () => sendBody({ attachmentIds: ['6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a'] }),
        ],
        [
          '400 for a webhook URL with credentials',
          400,
          () => sendBody({ webhook: { url: 'https://user:pass@hooks.example.com/h' } }),
        ],
        [
          '413 for inline attachments over MAX_ATTACHMENT_BYTES',
          413,
          () =>
            sendBody({
              attachments: [
                { fileName: 'big.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1).toString('base64') },
              ],
            }),
        ],
        [
          '413 for stored attachments over MAX_ATTACHMENT_BYTES together',
          413,
          async (userId) => sendBody({ attachmentIds: [await upload(userId, 600), await upload(userId, 600)] }),
        ],
      ];

    it.each(refusals)(
      '(%s) stores no key: the corrected retry with the same key is accepted',
      async (_case, status, refusedBody) => {
        const userId = newUserId();
        const key = newKey();

        const refused = await send(userId, await refusedBody(userId), key);

        expect(refused.status).toBe(status);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(await keysOf(userId)).toBe(0);
        expect(await messagesOf(userId)).toBe(0);
        const corrected = await send(userId, sendBody(), key);
        expectFirstAnswer(corrected);
        expectReplayOf(await send(userId, sendBody(), key), corrected);
        expect(await messagesOf(userId)).toBe(1);
      },
    );
  });
});
