import fc from 'fast-check';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import {
  countValues,
  expectAcceptedSend,
  expectEcho,
  expectFieldsPointIntoInput,
  expectNamed,
  expectPrototypeUntouched,
  expectWellFormedAnswer,
  isObject,
  replay,
  Tally,
  tryParse,
} from '../../support/hostile-input/checks';
import { footprint } from '../../support/hostile-input/footprint';
import { MAX_ATTACHMENT_BYTES, MAX_RECIPIENTS } from '../../support/hostile-input/send-bodies';
import { sendCase } from '../../support/hostile-input/send-cases';
import { SEND_FIELDS } from '../../support/hostile-input/text';

/*
 * Property-based fuzzing of POST /sender/send (docs/api.md#errors, docs/api.md#sending). Whatever arrives, the answer is
 * never a 5xx, every refusal is a well-formed problem, a 400 names the failing fields, and a
 * refused send writes nothing. Where a generator knows what it built (a valid body, a body with
 * one field broken on purpose, a body over a limit), the exact outcome is checked too.
 *
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const REQUIRED_RUNS = 2000;
const SEND_RUNS = 2000;

describe('hostile input to POST /sender/send (property-based)', () => {
  let t: TestApp;
  let suiteStart: Date;
  const tally = new Tally(SEND_FIELDS);

  beforeAll(async () => {
    // A database of its own: each run's footprint scans the queue's jobs, and on the run's shared
    // database those of every other suite (thousands by then, which took this suite past 300 s).
    t = await bootTestApp(
      {
        RATE_LIMIT_PER_MINUTE: '1000000',
        MAX_RECIPIENTS: String(MAX_RECIPIENTS),
        MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES),
      },
      { isolatedDatabase: true },
    );
    [{ now: suiteStart }] = await t.db.query(`SELECT now() AS now`);
  });
  afterAll(async () => {
    console.log(`hostile input\n  ${tally.summary('POST /sender/send')}`);
    await t?.close();
  });

  const footprintOf = (userId: string) => footprint(t.db, userId, suiteStart);

  it('answers every generated send body with 201 and a Message or a problem, and a refused one writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(sendCase, async ({ family, raw, idempotencyKey, expect: expectation }) => {
        // A user per run: a refusal must leave this user with nothing at all.
        const userId = newUserId('fuzz');
        const before = await footprintOf(userId);
        const request = t.http.post('/sender/send').set(bearer(userId)).set('Content-Type', 'application/json');
        if (idempotencyKey !== undefined) request.set('Idempotency-Key', idempotencyKey);
        const response = await request.send(raw);
        tally.record(family, response);

        expectWellFormedAnswer(response);
        expectPrototypeUntouched();
        const after = await footprintOf(userId);
        // As the server reads it: UTF-8 on the wire turns an unescaped lone surrogate into U+FFFD.
        const parsed = tryParse(Buffer.from(raw).toString());

        if (response.status < 300) expectAcceptedSend(response, userId, { before, after }, parsed, idempotencyKey);
        else expect(after).toEqual(before);

        // JSON that is not an object is refused as a whole; an object is refused field by field.
        if (!isObject(parsed)) expect(response.status).toBe(400);
        if (response.status === 400 && isObject(parsed) && countValues(parsed) <= 10_000) {
          expect(response.body.errors?.length).toBeGreaterThan(0);
          const sentHeaders = idempotencyKey === undefined ? [] : ['Idempotency-Key'];
          expectFieldsPointIntoInput(response.body.errors, [...Object.keys(parsed), ...SEND_FIELDS, ...sentHeaders]);
        }

        if (expectation) {
          tally.predicted++;
          expect(response.status).toBe(expectation.status);
          if (expectation.fields) expectNamed(response.body.errors ?? [], expectation.fields, false);
          if (expectation.status === 201 && isObject(parsed)) expectEcho(response.body, parsed);
        }
      }),
      { numRuns: SEND_RUNS, ...replay },
    );
    expect(tally.total).toBeGreaterThanOrEqual(REQUIRED_RUNS);
    // 2,000 sends, each with its footprint read before and after: 151 s beside a light load, past
    // 300 s on a busy CI rehearsal.
  }, 600_000);
});
