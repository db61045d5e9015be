import { PreparedStatements } from '../../../src/platform/database/prepared-statements';
import { senderIdFor } from '../../../src/messages/addresses';
import { storeMessage } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

/** docs/api.md#routes: `q`, the message list's free-text search of subjects and recipients. */
describe('GET /user/messages?q=', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const list = (userId: string, query: Record<string, string>) =>
    t.http.get('/user/messages').query(query).set(bearer(userId));

  describe('what it finds', () => {
    const userId = newUserId();
    const named: Record<string, string> = {};
    beforeAll(async () => {
      const put = async (name: string, fields: Parameters<typeof storeMessage>[2]) =>
        (named[(await storeMessage(t.db, userId, fields)).id] = name);
      await put('invoice', { subject: 'Your Invoice for November', recipients: ['grace@example.com'] });
      await put('ada', { subject: 'Welcome', recipients: ['Ada Lovelace <ada@analytical.example>'] });
      await put('cc', { subject: 'Minutes', recipients: ['team@example.com'], cc: ['linus@kernel.example'] });
      await put('percent', { subject: '100% off_today', recipients: ['sale@example.com'], status: 'sent' });
      // Another user's message that would match: never found.
      await storeMessage(t.db, newUserId(), { subject: 'Invoice of someone else' });
    });

    const found = async (query: Record<string, string>) => {
      const { body } = await list(userId, query).expect(200);
      expect(body.total).toBe(body.messages.length);
      return body.messages.map((m: { id: string }) => named[m.id]).sort();
    };

    it('finds the subject and every recipient (display names and cc too), case-insensitively, and echoes q', async () => {
      expect(await found({ q: 'invoice' })).toEqual(['invoice']);
      expect(await found({ q: 'LOVELACE' })).toEqual(['ada']);
      expect(await found({ q: 'analytical.example' })).toEqual(['ada']);
      expect(await found({ q: 'kernel' })).toEqual(['cc']);
      expect(await found({ q: 'example' })).toEqual(['ada', 'cc', 'invoice', 'percent']);
      expect(await found({ q: 'nowhere' })).toEqual([]);
      const { body } = await list(userId, { q: 'Invoice' });
      expect(body.q).toBe('Invoice');
      expect((await list(userId, {})).body.q).toBeNull();
    });

    it("matches LIKE's wildcards as themselves", async () => {
      expect(await found({ q: '%' })).toEqual(['percent']);
      expect(await found({ q: '0% off_' })).toEqual(['percent']);
      expect(await found({ q: 'off today' })).toEqual([]);
      expect(await found({ q: '_' })).toEqual(['percent']);
    });

    it('combines with the other filters', async () => {
      expect(await found({ q: 'example', statuses: 'sent' })).toEqual(['percent']);
      expect(await found({ q: 'example', toEmail: 'grace@example.com' })).toEqual(['invoice']);
      expect(await found({ q: 'welcome', toEmail: 'grace@example.com' })).toEqual([]);
    });

    it('takes 200 characters and refuses 201, an empty q and a NUL, naming q', async () => {
      expect((await list(userId, { q: 'é'.repeat(200) }).expect(200)).body.total).toBe(0);
      for (const q of ['é'.repeat(201), '', 'a\u0000b']) {
        const { body } = await list(userId, { q }).expect(400);
        expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['q']);
      }
    });
  });

  it('is answered from the trigram index at a realistic size (20,000 messages of the user among 60,000)', async () => {
    const userId = newUserId();
    const sender = 'news@example.com';
    for (const [owner, count] of [
      [userId, 20_000],
      [newUserId(), 40_000],
    ] as const) {
      await t.db.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, $2, $3)`, [
        senderIdFor(owner, sender),
        owner,
        sender,
      ]);
      await t.db.query(
        `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority, sent_at, updated_at)
           SELECT gen_random_uuid(), $1, $2, $3, ARRAY['customer' || i || '@example.com'],
             'Order ' || i || ' has shipped', '<p>Hi</p>', 'sent', 'normal', t, t
           FROM generate_series(1, $4::int) AS i,
             LATERAL (SELECT now() - make_interval(secs => i * 60) AS t) times`,
        [owner, senderIdFor(owner, sender), sender, count],
      );
    }
    await t.db.query(`ANALYZE messages`);

    // The statements the list runs for one q, as the app sends them, explained with their values.
    const statements = t.app.get(PreparedStatements);
    const seen: { sql: string; params: unknown[] }[] = [];
    const query = statements.query.bind(statements);
    const spy = jest.spyOn(statements, 'query').mockImplementation((sql, params) => {
      seen.push({ sql, params });
      return query(sql, params);
    });
    try {
      const { body } = await list(userId, { q: 'customer1234@' }).expect(200);
      expect(body.messages.map((m: { to: string[] }) => m.to)).toEqual([['customer1234@example.com']]);
    } finally {
      spy.mockRestore();
    }
    expect(seen.map((s) => s.sql).filter((sql) => sql.includes('message_search_text'))).toHaveLength(2);
    for (const { sql, params } of seen.filter((s) => s.sql.includes('message_search_text'))) {
      const [{ 'QUERY PLAN': plan }] = await t.db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      expect(JSON.stringify(plan)).toContain('"Index Name":"ix_messages_search"');
    }
  }, 120_000);
});
