import type { Socket } from 'node:net';
import { Database } from '../../../src/platform/database/database';
import { PreparedStatements } from '../../../src/platform/database/prepared-statements';
import { sendBody, storeMessage, storeMessages } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const at = (iso: string) => new Date(iso);

describe('GET /user/messages and GET /user/messages/{id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const list = (userId: string, query: Record<string, string | number | boolean> = {}) =>
    t.http.get('/user/messages').query(query).set(bearer(userId));

  const ids = (body: { messages: { id: string }[] }) => body.messages.map((m) => m.id);

  describe('paging', () => {
    const userId = newUserId();
    let newestFirst: string[];

    beforeAll(async () => {
      const stored = [];
      for (let i = 0; i < 25; i++) {
        stored.push(await storeMessage(t.db, userId, { sentAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }));
      }
      newestFirst = stored.reverse().map((m) => m.id);
    });

    it('defaults to the first 10, newest first, with the whole envelope and null filters', async () => {
      const { body } = await list(userId).expect(200);
      expect(ids(body)).toEqual(newestFirst.slice(0, 10));
      expect(body).toMatchObject({
        take: 10,
        page: 1,
        skip: 0,
        total: 25,
        totalPages: 3,
        hasNext: true,
        startDate: null,
        endDate: null,
        fromEmail: null,
        toEmail: null,
        statuses: null,
        bulkSending: null,
      });
    });

    it('walks the pages without overlap or gaps', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => list(userId, { take: 10, page }).expect(200)));
      expect(pages.flatMap((p) => ids(p.body))).toEqual(newestFirst);
      expect(pages[2].body).toMatchObject({ page: 3, skip: 20, hasNext: false });
      expect(pages[2].body.messages).toHaveLength(5);
    });

    it('accepts take 1 and 100 and answers a page past the end with 200 and no messages', async () => {
      expect((await list(userId, { take: 1 }).expect(200)).body).toMatchObject({ totalPages: 25, hasNext: true });
      expect((await list(userId, { take: 100 }).expect(200)).body.messages).toHaveLength(25);
      const past = await list(userId, { take: 10, page: 4 }).expect(200);
      expect(past.body).toMatchObject({ messages: [], page: 4, skip: 30, total: 25, totalPages: 3, hasNext: false });
    });

    it('reads pages past a skip of 1,000 (index first, then rows) in the same order as the pages before them', async () => {
      const deep = newUserId();
      // Three messages a second, so that ties on sentAt cross page boundaries, and time running
      // against the ids (which grow with each insert); one in a hundred failed.
      const stored = await storeMessages(
        t.db,
        deep,
        Array.from({ length: 1_050 }, (_, i) => ({
          sentAt: new Date(Date.UTC(2026, 2, 1, 0, 0, Math.floor((1_049 - i) / 3))),
          status: i % 100 === 7 ? ('failed' as const) : ('sent' as const),
        })),
      );
      const status = new Map(stored.map((m, i) => [m.id, i % 100 === 7 ? 'failed' : 'sent']));
      const newest = [...stored]
        .sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime() || (a.id < b.id ? 1 : -1))
        .map((m) => m.id);
      for (const [query, expected] of [
        [{}, newest],
        [{ statuses: 'sent' }, newest.filter((id) => status.get(id) === 'sent')],
        [{ statuses: 'sent,failed' }, newest],
      ] as const) {
        const pages = [];
        for (let page = 1; page <= 11; page++)
          pages.push((await list(deep, { ...query, take: 100, page }).expect(200)).body);
        expect(pages.flatMap(ids)).toEqual(expected);
        expect(pages.map((p) => p.total)).toEqual(Array(11).fill(expected.length));
      }
    });

    it('breaks ties on sentAt by id, descending', async () => {
      const tied = newUserId();
      const when = at('2026-02-01T00:00:00Z');
      const a = await storeMessage(t.db, tied, { sentAt: when });
      const b = await storeMessage(t.db, tied, { sentAt: when });
      const { body } = await list(tied).expect(200);
      expect(ids(body)).toEqual([a.id, b.id].sort().reverse());
    });

    it.each([
      ['take', '0'],
      ['take', '101'],
      ['take', '1.5'],
      ['take', 'ten'],
      ['take', '-1'],
      ['take', ''],
      ['page', '0'],
      ['page', '1e3'],
      ['page', 'x'],
      ['page', '99999999999999999999'],
      ['includeStatusHistory', 'yes'],
      ['includeStatusHistory', 'TRUE'],
    ])('refuses %s=%s with 400 naming it', async (name, value) => {
      const response = await t.http
        .get(`/user/messages?${name}=${encodeURIComponent(value)}`)
        .set(bearer(userId))
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([name]);
    });

    it('refuses a repeated parameter and an unknown one', async () => {
      await t.http.get('/user/messages?take=1&take=2').set(bearer(userId)).expect(400);
      const unknown = await t.http.get('/user/messages?limit=5').set(bearer(userId)).expect(400);
      expect(unknown.body.errors).toEqual([{ field: 'limit', message: 'is not a field of this request' }]);
    });
  });

  describe('filters', () => {
    const userId = newUserId();
    const stored: Record<string, string> = {};

    beforeAll(async () => {
      const put = async (name: string, fields: Parameters<typeof storeMessage>[2]) => {
        stored[name] = (await storeMessage(t.db, userId, fields)).id;
      };
      await put('feb28', {
        sentAt: at('2026-02-28T23:59:59.999Z'),
        sender: 'news@example.com',
        recipients: ['Ada@Example.com'],
      });
      await put('mar1start', {
        sentAt: at('2026-03-01T00:00:00.000Z'),
        sender: 'billing@example.com',
        recipients: ['grace@example.com', 'ada@example.com'],
        status: 'sent',
        bulkSendingId: 'spring',
      });
      await put('mar1end', {
        sentAt: at('2026-03-01T23:59:59.999Z'),
        sender: 'Billing@Example.com',
        recipients: ['linus@example.com'],
        status: 'failed',
        bulkSendingId: 'spring',
      });
      await put('mar2', {
        sentAt: at('2026-03-02T00:00:00.000Z'),
        sender: 'news@example.com',
        recipients: ['grace@example.com'],
        status: 'deferred',
        bulkSendingId: 'Spring',
      });
    });

    const matching = async (query: Record<string, string>) => {
      const { body } = await list(userId, query).expect(200);
      expect(body.total).toBe(body.messages.length);
      return ids(body).map((id) => Object.keys(stored).find((name) => stored[name] === id));
    };

    it('takes a date as a whole UTC day, both bounds inclusive, and echoes UTC date-times', async () => {
      expect(await matching({ startDate: '2026-03-01', endDate: '2026-03-01' })).toEqual(['mar1end', 'mar1start']);
      const { body } = await list(userId, { startDate: '2026-03-01', endDate: '2026-03-01' });
      expect(body).toMatchObject({ startDate: '2026-03-01T00:00:00.000Z', endDate: '2026-03-01T23:59:59.999Z' });
    });

    it('takes date-times with an offset', async () => {
      expect(await matching({ startDate: '2026-03-01T01:00:00+01:00' })).toEqual(['mar2', 'mar1end', 'mar1start']);
      expect(await matching({ endDate: '2026-02-28T23:59:59.999Z' })).toEqual(['feb28']);
      const { body } = await list(userId, { startDate: '2026-03-01T01:00:00+01:00' });
      expect(body.startDate).toBe('2026-03-01T00:00:00.000Z');
    });

    it('filters by sender address, case-insensitively, echoing it lower-cased', async () => {
      expect(await matching({ fromEmail: 'BILLING@example.com' })).toEqual(['mar1end', 'mar1start']);
      expect((await list(userId, { fromEmail: 'BILLING@example.com' })).body.fromEmail).toBe('billing@example.com');
      expect(await matching({ fromEmail: 'nobody@example.com' })).toEqual([]);
    });

    it('filters by any one recipient, case-insensitively', async () => {
      expect(await matching({ toEmail: 'ADA@example.com' })).toEqual(['mar1start', 'feb28']);
      expect(await matching({ toEmail: 'grace@example.com' })).toEqual(['mar2', 'mar1start']);
    });

    it('filters by statuses, comma-separated, echoing them de-duplicated', async () => {
      expect(await matching({ statuses: 'sent,failed' })).toEqual(['mar1end', 'mar1start']);
      expect(await matching({ statuses: 'queued' })).toEqual(['feb28']);
      expect((await list(userId, { statuses: 'failed, sent,failed' })).body.statuses).toBe('failed,sent');
    });

    it('filters by exact bulkSendingId', async () => {
      expect(await matching({ bulkSending: 'spring' })).toEqual(['mar1end', 'mar1start']);
      expect(await matching({ bulkSending: 'Spring' })).toEqual(['mar2']);
    });

    it('combines every filter', async () => {
      const query = {
        startDate: '2026-03-01',
        endDate: '2026-03-02',
        fromEmail: 'billing@example.com',
        toEmail: 'ada@example.com',
        statuses: 'sent',
        bulkSending: 'spring',
      };
      expect(await matching(query)).toEqual(['mar1start']);
      const { body } = await list(userId, query);
      expect(body).toMatchObject({
        ...query,
        startDate: '2026-03-01T00:00:00.000Z',
        endDate: '2026-03-02T23:59:59.999Z',
      });
    });

    it.each([
      ['startDate', '2026-02-30'],
      ['startDate', '01/03/2026'],
      ['endDate', '2026-03-01T12:00:00'],
      ['endDate', 'yesterday'],
      ['fromEmail', 'billing'],
      ['toEmail', 'a@b'],
      ['statuses', 'sent,delivered'],
      ['statuses', ''],
      ['statuses', 'sent,,failed'],
      ['bulkSending', ''],
      ['bulkSending', 'a\u0000b'],
      ['endDate', '9999-12-31T23:00:00-14:00'],
    ])('refuses %s=%s with 400 naming it', async (name, value) => {
      const response = await list(userId, { [name]: value }).expect(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([name]);
    });

    it('refuses a start after the end', async () => {
      const response = await list(userId, { startDate: '2026-03-02', endDate: '2026-03-01' }).expect(400);
      expect(response.body.errors).toEqual([{ field: 'endDate', message: 'must not be before startDate' }]);
    });
  });

  describe('status history and single messages', () => {
    it("includes each message's status history, oldest first, only when asked", async () => {
      const userId = newUserId();
      const message = await storeMessage(t.db, userId, { sentAt: at('2026-04-01T10:00:00Z'), status: 'sent' });
      const plain = await list(userId).expect(200);
      expect(plain.body.messages[0]).not.toHaveProperty('statusHistory');
      for (const flag of ['true', '1']) {
        const { body } = await list(userId, { includeStatusHistory: flag }).expect(200);
        expect(body.messages[0].statusHistory).toEqual([
          { status: 'queued', at: '2026-04-01T10:00:00.000Z', detail: null },
          { status: 'sent', at: '2026-04-01T10:00:01.000Z', detail: null },
        ]);
      }
      const off = await list(userId, { includeStatusHistory: '0' }).expect(200);
      expect(off.body.messages[0]).not.toHaveProperty('statusHistory');
      expect(message.id).toBe(plain.body.messages[0].id);
    });

    it('returns one message with its history, as the send answered it', async () => {
      const userId = newUserId();
      const sent = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ customPayload: { a: 'b' } }))
        .expect(201);
      const { body } = await t.http.get(sent.headers.location).set(bearer(userId)).expect(200);
      expect(body).toEqual({ ...sent.body, statusHistory: [{ status: 'queued', at: sent.body.sentAt, detail: null }] });
    });

    it('answers 404 for an unknown id and for an id that is not a UUID', async () => {
      const userId = newUserId();
      const unknown = await t.http
        .get('/user/messages/01a1ff99-7a4f-72c1-b480-10d9bd71662f')
        .set(bearer(userId))
        .expect(404);
      expect(unknown.body).toMatchObject({ status: 404, title: 'Not Found' });
      const malformed = await t.http
        .get(`/user/messages/${'x'.repeat(5000)}`)
        .set(bearer(userId))
        .expect(404);
      expect(malformed.body.detail).toBe('That message does not exist.');
    });
  });

  describe('prepared statements', () => {
    it("are planned for each run's values, never once for all", async () => {
      const statements = t.app.get(PreparedStatements);
      // A statement that reports its own plans. Left to choose, PostgreSQL plans a statement
      // this simple once for all values from its sixth run on (generic_plans), and it would
      // serve a small user's plan to a million-message one just the same.
      const ownPlans = `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1`;
      const runs = [];
      for (let run = 0; run < 10; run++)
        runs.push(...(await statements.query<{ generic: number; custom: number }>(ownPlans, [ownPlans])));
      expect(Math.max(...runs.map((r) => r.custom))).toBeGreaterThanOrEqual(6);
      expect(runs.map((r) => r.generic)).toEqual(runs.map(() => 0));
    });

    it('report a failing statement to the caller and go on serving', async () => {
      const statements = t.app.get(PreparedStatements);
      await expect(statements.query(`SELECT 1 / $1::int AS n`, [0])).rejects.toThrow('division by zero');
      expect(await statements.query(`SELECT 1 / $1::int AS n`, [1])).toEqual([{ n: 1 }]);
    });

    it('survive a connection dropped mid-statement: the caller gets the error, the process goes on', async () => {
      const statements = t.app.get(PreparedStatements);
      const pool = t.app.get(Database).pool as unknown as {
        _clients: { activeQuery?: { text?: string }; connection: { stream: Socket } }[];
      };
      const sleeping = statements.query(`SELECT pg_sleep($1::float8) AS slept`, [3]);
      let running;
      while (!(running = pool._clients.find((c) => c.activeQuery?.text?.includes('pg_sleep'))))
        await new Promise((r) => setTimeout(r, 5));
      // Closed without a word from the server, as a network failure would.
      running.connection.stream.destroy();
      await expect(sleeping).rejects.toThrow('Connection terminated unexpectedly');
      expect(await statements.query(`SELECT 1 / $1::int AS n`, [1])).toEqual([{ n: 1 }]);
    });
  });

  describe('ownership', () => {
    it("never shows one user another user's messages: lists, filters and ids", async () => {
      const alice = newUserId('alice');
      const bob = newUserId('bob');
      const alices = await storeMessage(t.db, alice, { bulkSendingId: 'shared', recipients: ['x@example.com'] });
      await storeMessage(t.db, bob, { bulkSendingId: 'shared', recipients: ['x@example.com'] });

      const bobsList = await list(bob, { includeStatusHistory: true }).expect(200);
      expect(bobsList.body.total).toBe(1);
      expect(ids(bobsList.body)).not.toContain(alices.id);
      const filters: Record<string, string>[] = [
        { bulkSending: 'shared' },
        { toEmail: 'x@example.com' },
        { fromEmail: 'billing@example.com' },
      ];
      for (const query of filters) {
        const { body } = await list(bob, query).expect(200);
        expect(body.total).toBe(1);
        expect(body.messages.every((m: { userId: string }) => m.userId === bob)).toBe(true);
      }
      const foreign = await t.http.get(`/user/messages/${alices.id}`).set(bearer(bob)).expect(404);
      const missing = await t.http
        .get('/user/messages/01a1ff99-0000-7000-8000-000000000000')
        .set(bearer(bob))
        .expect(404);
      expect({ ...foreign.body, requestId: '' }).toEqual({
        ...missing.body,
        requestId: '',
        detail: foreign.body.detail,
      });
      expect(foreign.body.detail).toBe(`Message ${alices.id} does not exist.`);
    });
  });
});
