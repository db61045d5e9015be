import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import { storeMessage } from '../../../support/factories';
import { bootTestApp, TestApp } from '../../../support/test-app';
import { bearer, newUserId } from '../../../support/tokens';
import {
  expectFieldsPointIntoInput,
  expectNamed,
  expectPageEnvelope,
  expectPrototypeUntouched,
  expectWellFormedAnswer,
  replay,
  Tally,
} from '../../../support/hostile-input/checks';
import { expectedListOutcome, expectedPage, readQuery } from '../../../support/hostile-input/list-oracle';
import { queryCase, SEEDED } from '../../../support/hostile-input/query-cases';
import type { Seeded } from '../../../support/hostile-input/query-cases';
import { QUERY_FIELDS } from '../../../support/hostile-input/text';

/*
 * Property-based fuzzing of GET /user/messages (docs/api.md#errors, docs/api.md#routes). Whatever the query, the answer is
 * never a 5xx, every refusal is a well-formed problem naming the bad parameters, and where every
 * value is known to be good or bad, the exact outcome is checked: the very page of the seeded
 * messages, or a 400 naming each bad parameter.
 *
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const REQUIRED_RUNS = 2000;
const LIST_RUNS = 2000;

describe('hostile input to GET /user/messages (property-based)', () => {
  let t: TestApp;
  const tally = new Tally(QUERY_FIELDS);
  const userId = newUserId('fuzz-list');
  const stored: (Seeded & { id: string })[] = [];

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
    for (const seeded of SEEDED) {
      const message = await storeMessage(t.db, userId, { ...seeded, sentAt: new Date(seeded.sentAt) });
      stored.push({ ...seeded, id: message.id });
    }
  });
  afterAll(async () => {
    console.log(`hostile input\n  ${tally.summary('GET /user/messages')}`);
    await t?.close();
  });

  it('answers every generated query with the paging envelope or a problem naming the bad parameters', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async ({ family, params }) => {
        const query = params.map((p) => p.wire).join('&');
        const response = await t.http.get(`/user/messages?${query}`).set(bearer(userId));
        tally.record(family, response);

        expectWellFormedAnswer(response);
        expectPrototypeUntouched();
        // Each pair as it goes on the wire once the client has normalized the URL, as Express reads it.
        const sent = params.map((p) => ({ ...p, wire: new URL(`http://mailroom.test/?${p.wire}`).search.slice(1) }));
        const sentNames = sent.flatMap((p) => Object.keys(parseQueryString(p.wire)));

        if (response.status < 300) {
          expect(response.status).toBe(200);
          expectPageEnvelope(response.body, userId);
        } else if (response.status === 400) {
          expect(response.body.errors?.length).toBeGreaterThan(0);
          expectFieldsPointIntoInput(response.body.errors, [...sentNames, ...QUERY_FIELDS]);
        }

        const expectation = expectedListOutcome(readQuery(sent));
        if (expectation) {
          tally.predicted++;
          expect(response.status).toBe(expectation.status);
          if (expectation.status === 400) expectNamed(response.body.errors, expectation.fields, true);
          if (expectation.status === 200) {
            const { ids, envelope } = expectedPage(stored, expectation.read);
            expect(response.body).toMatchObject(envelope);
            expect(response.body.messages.map((m: { id: string }) => m.id)).toEqual(ids);
            const withHistory = ['true', '1'].includes(expectation.read.get('includeStatusHistory')?.value ?? '');
            for (const m of response.body.messages) expect(Array.isArray(m.statusHistory)).toBe(withHistory);
          }
        }
      }),
      { numRuns: LIST_RUNS, ...replay },
    );
    expect(tally.total).toBeGreaterThanOrEqual(REQUIRED_RUNS);
  }, 300_000);
});
