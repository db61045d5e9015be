import fc from 'fast-check';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import {
  countValues,
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
import { batchCase } from '../../support/hostile-input/batch-cases';
import { footprint } from '../../support/hostile-input/footprint';
import { MAX_ATTACHMENT_BYTES, MAX_RECIPIENTS } from '../../support/hostile-input/send-bodies';

/*
 * Property-based fuzzing of POST /sender/send/batch (docs/api.md#errors, docs/api.md#sending): never a 5xx, every refusal a
 * well-formed problem naming fields that point into the input, a refused batch writes nothing at
 * all, and an accepted one stores every message with its delivery job.
 *
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const BATCH_RUNS = 400;

describe('hostile input to POST /sender/send/batch (property-based)', () => {
  let t: TestApp;
  let suiteStart: Date;
  const tally = new Tally(['messages']);

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
    console.log(`hostile input\n  ${tally.summary('POST /sender/send/batch')}`);
    await t?.close();
  });

  it('answers every generated batch with 201 and its Messages or a problem, and a refused one writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(batchCase, async ({ family, raw, idempotencyKey, expect: expectation }) => {
        const userId = newUserId('fuzz');
        const before = await footprint(t.db, userId, suiteStart);
        const request = t.http.post('/sender/send/batch').set(bearer(userId)).set('Content-Type', 'application/json');
        if (idempotencyKey !== undefined) request.set('Idempotency-Key', idempotencyKey);
        const response = await request.send(raw);
        tally.record(family, response);

        expectWellFormedAnswer(response);
        expectPrototypeUntouched();
        const after = await footprint(t.db, userId, suiteStart);
        const parsed = tryParse(Buffer.from(raw).toString());

        if (response.status < 300) {
          const sent = (parsed as { messages: Record<string, unknown>[] }).messages;
          expect(response.body.messages).toHaveLength(sent.length);
          sent.forEach((message, i) => expectEcho(response.body.messages[i], message));
          expect(after).toMatchObject({
            messages: before.messages + sent.length,
            deliveryJobs: before.deliveryJobs + sent.length,
            orphanJobs: before.orphanJobs,
            idempotencyKeys: before.idempotencyKeys + (idempotencyKey === undefined ? 0 : 1),
          });
        } else {
          expect(after).toEqual(before);
        }

        if (response.status === 400 && isObject(parsed) && countValues(parsed) <= 10_000) {
          expect(response.body.errors?.length).toBeGreaterThan(0);
          const sentHeaders = idempotencyKey === undefined ? [] : ['Idempotency-Key'];
          expectFieldsPointIntoInput(response.body.errors, [...Object.keys(parsed), 'messages', ...sentHeaders]);
        }

        if (expectation) {
          tally.predicted++;
          expect(response.status).toBe(expectation.status);
          if (expectation.fields) expectNamed(response.body.errors ?? [], expectation.fields, false);
        }
      }),
      { numRuns: BATCH_RUNS, ...replay },
    );
  }, 300_000);
});
