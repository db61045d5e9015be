// Issue 21 item 3: a send holding a value PostgreSQL cannot store (a NUL, which SMTP submission
// once let through) shared its group commit with other users' sends and took them down with it
// (828 of 4,629 of another user's REST sends got 500). Now the group commit isolates it: the
// others commit, and it alone is refused, with a 400 naming the field.
import { InvalidInputError } from '../../../src/platform/problem/problem.errors';
import { MessageIntake } from '../../../src/sender/intake/message-intake';
import type { SendRequest } from '../../../src/sender/intake/send-request';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('a send PostgreSQL cannot store', () => {
  let t: TestApp;
  let intake: MessageIntake;

  beforeAll(async () => {
    t = await bootTestApp();
    intake = t.app.get(MessageIntake);
  });
  afterAll(() => t?.close());

  const request = (overrides: Record<string, unknown> = {}) => sendBody(overrides) as unknown as SendRequest;
  const storedCount = async (userId: string) =>
    Number((await t.db.query('SELECT count(*) FROM messages WHERE user_id = $1', [userId]))[0].count);

  it("fails alone: the other users' sends that share its transaction are stored", async () => {
    const [alice, bob] = [newUserId('alice'), newUserId('bob')];
    // All in one turn: four writers take one send each, and the other 27 share one transaction.
    const bobs = Array.from({ length: 30 }, () => intake.accept(bob, request()));
    const sends = [
      ...bobs.slice(0, 12),
      intake.accept(alice, request({ subject: 'Invoice\u0000 2' })),
      ...bobs.slice(12),
    ];

    const outcomes = await Promise.allSettled(sends);

    const refused = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [{ i, reason: o.reason }] : []));
    expect(refused).toEqual([{ i: 12, reason: expect.any(InvalidInputError) }]);
    expect((refused[0].reason as InvalidInputError).errors).toEqual([
      { field: 'subject', message: 'must not contain NUL characters' },
    ]);
    expect(await storedCount(bob)).toBe(30);
    expect(await storedCount(alice)).toBe(0);
  });

  it('leaves concurrent REST sends of another user unharmed: every one 201, none 500', async () => {
    const [alice, bob] = [newUserId('alice'), newUserId('bob')];
    const rest = Array.from({ length: 60 }, () =>
      t.http
        .post('/sender/send')
        .set(bearer(bob))
        .send(sendBody())
        .then((r) => r.status),
    );
    const bad = Array.from({ length: 10 }, (_, i) =>
      intake.accept(alice, request({ html: `<p>\u0000${i}</p>` })).then(
        () => 'stored',
        (e: unknown) => e,
      ),
    );

    const [statuses, refusals] = await Promise.all([Promise.all(rest), Promise.all(bad)]);

    expect(statuses).toEqual(Array(60).fill(201));
    for (const refusal of refusals)
      expect(refusal).toMatchObject({
        status: 400,
        errors: [{ field: 'html', message: 'must not contain NUL characters' }],
      });
    expect(await storedCount(bob)).toBe(60);
    expect(await storedCount(alice)).toBe(0);
  });

  it('names the message of a batch that holds the NUL', async () => {
    const alice = newUserId('alice');
    const refusal = await intake
      .acceptMany(alice, [request(), request({ to: ['ada@example.com', 'b\u0000b@example.com'] })])
      .catch((e: unknown) => e);
    expect(refusal).toMatchObject({
      status: 400,
      errors: [{ field: 'messages[1].to[1]', message: 'must not contain NUL characters' }],
    });
    expect(await storedCount(alice)).toBe(0);
  });
});
