// Issue 21 item 9b: an unknown field names the field that was likely meant, so that someone
// arriving from Resend or Postmark (`from`, `HtmlBody`, `reply_to`…) learns our name from the 400.
import { sendBody } from '../support/factories';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';

describe('unknown fields: "did you mean"', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t?.close());

  const without = (field: string) => {
    const body = sendBody();
    delete body[field];
    return body;
  };
  const storedCount = async (userId: string) =>
    Number((await t.db.query('SELECT count(*) FROM messages WHERE user_id = $1', [userId]))[0].count);
  const unknown = (field: string, meant?: string) => ({
    field,
    message: meant ? `is not a field of this request; did you mean \`${meant}\`?` : 'is not a field of this request',
  });

  it("names `sender` for Resend's and Postmark's `from`/`From`, beside the missing sender", async () => {
    const userId = newUserId();
    for (const from of ['from', 'From']) {
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send({ ...without('sender'), [from]: 'billing@example.com' })
        .expect(400);
      expect(body.errors).toEqual(
        expect.arrayContaining([unknown(from, 'sender'), { field: 'sender', message: 'is required' }]),
      );
    }
    expect(await storedCount(userId)).toBe(0);
  });

  it.each([
    ['reply_to', 'replyTo'],
    ['ReplyTo', 'replyTo'],
    ['scheduled_at', 'scheduledAt'],
    ['HtmlBody', 'html'],
    ['TextBody', 'text'],
    ['Cc', 'cc'],
    ['Metadata', 'customPayload'],
    ['tags', 'customPayload'],
    ['bulk_sending_id', 'bulkSendingId'],
    ['attachment-ids', 'attachmentIds'],
  ])('names `%s` as `%s`', async (given, meant) => {
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(newUserId()))
      .send({ ...sendBody(), [given]: 'x' })
      .expect(400);
    expect(body.errors).toEqual([unknown(given, meant)]);
  });

  it('suggests within nested objects, by their own fields', async () => {
    const attachments = [
      { filename: 'a.txt', content: 'aGVsbG8=', content_type: 'text/plain', Name: 'x' },
      { fileName: 'b.png', content: 'aGVsbG8=', ContentID: 'b', cid: 'b' },
    ];
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(newUserId()))
      .send({ ...sendBody(), attachments })
      .expect(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        unknown('attachments[0].filename', 'fileName'),
        unknown('attachments[0].content_type', 'contentType'),
        unknown('attachments[0].Name', 'fileName'),
        unknown('attachments[1].ContentID', 'contentId'),
        unknown('attachments[1].cid', 'contentId'),
      ]),
    );
  });

  it('names `messages[0].from` in a batch, and suggests nothing it cannot tell', async () => {
    const userId = newUserId();
    const { body } = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({
        messages: [
          { ...without('sender'), from: 'billing@example.com' },
          { ...sendBody(), track_opens: true },
        ],
      })
      .expect(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([unknown('messages[0].from', 'sender'), unknown('messages[1].track_opens')]),
    );
    expect(await storedCount(userId)).toBe(0);
  });

  it('suggests only fields of the request at hand: `from` on an API key is just unknown', async () => {
    const { body } = await t.http
      .post('/user/api-keys')
      .set(bearer(newUserId()))
      .send({ name: 'k', from: 'x' })
      .expect(400);
    expect(body.errors).toEqual([unknown('from')]);
  });
});
