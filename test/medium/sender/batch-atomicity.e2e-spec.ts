// A batch is stored in one transaction (docs/api.md#sending): a failure after its messages are written, here a
// database fault raised by a trigger on the last message's attachment, leaves nothing behind.
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';
import { batchOf, deliveryJobsOf, sendBatch } from '../../support/batch/batch-support';

describe('a batch that fails while it is being stored', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A database of its own: the trigger below is no other test's business.
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, { isolatedDatabase: true });
    await t.db.query(`
      CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated fault while storing an attachment'; END $$;
      CREATE TRIGGER refuse_boom BEFORE INSERT ON message_attachments
        FOR EACH ROW WHEN (NEW.file_name = 'boom.txt') EXECUTE FUNCTION refuse_boom();`);
  });
  afterAll(() => t?.close());

  it('leaves no message, recipient, history entry or job of any message of the batch', async () => {
    const userId = newUserId();
    const messages = [
      ...batchOf(4),
      sendBody({ subject: 'Last', attachments: [{ fileName: 'boom.txt', content: 'Ym9vbQ==' }] }),
    ];

    const response = await sendBatch(t.http, userId, messages);

    // The fault is the database's, not the caller's: a 500 problem with no detail.
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ status: 500, requestId: expect.any(String) });
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    expect(await deliveryJobsOf(t.db, userId)).toBe(0);

    // Without the faulty attachment the same batch is stored whole.
    await sendBatch(t.http, userId, batchOf(5)).expect(201);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 5 });
    expect(await deliveryJobsOf(t.db, userId)).toBe(5);
  });
});
