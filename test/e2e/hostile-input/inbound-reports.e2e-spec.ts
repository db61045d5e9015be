import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { BOUNCE_DOMAIN, bootBounceApp } from '../../support/bounces/bounce-app';
import { converse, sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { newUserId } from '../../support/tokens';
import { TIMEOUT } from '../../support/webhooks/webhook-app';
import { replay } from '../../support/hostile-input/checks';
import { Aim, reportPlan, saysAddressIsBad, writeReport } from '../../support/hostile-input/report-mails';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("inbound-reports: the tests that speak through Python's smtplib");

/*
 * Property-based fuzzing of the inbound listener (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md), as POST /sender/send is fuzzed:
 * generated report mails (random text and binary, DSNs and feedback reports with random, missing
 * or broken fields, broken MIME framing, odd charsets, huge header lines, reports nested in
 * message/rfc822) go through nodemailer's SMTP transport to the VERP addresses of real delivered
 * messages. The listener never refuses one but for its size, never fails, and the database moves
 * only as SPEC allows: the aimed-at message to bounced or complained as its report says, never
 * another message; a suppression only of the named recipient, and only for an address failure or
 * a complaint; random text never anything.
 *
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const RUNS = 150;
const POOL = 30;
const MIB = 1024 * 1024;

interface Row {
  id: string;
  status: string;
}
interface Suppression {
  user_id: string;
  email: string;
  reason: string;
}

describe('hostile mail to the inbound listener (property-based)', () => {
  const app = bootBounceApp();
  const { t } = app;
  const pool: (Aim & { id: string; userId: string })[] = [];
  const tally = { runs: 0, refused: 0, bounced: 0, complained: 0, suppressed: 0 };

  beforeAll(async () => {
    const delivered = await Promise.all(
      Array.from({ length: POOL }, async () => {
        const userId = newUserId('inbound-fuzz');
        const self = `fuzz-${randomUUID()}@example.com`;
        const { id, verp } = await app.deliver(userId, { to: [self] });
        return { id, userId, self, rcpt: verp.get(self)! };
      }),
    );
    delivered.forEach((d, i) => pool.push({ ...d, other: delivered[(i + 1) % POOL].self }));
  }, TIMEOUT);
  afterAll(() => console.log(`inbound listener fuzz: ${JSON.stringify(tally)}`));

  const snapshot = async () => ({
    messages: await t.db.query<Row[]>(`SELECT id, status FROM messages ORDER BY id`),
    suppressions: await t.db.query<Suppression[]>(
      `SELECT user_id, email, reason FROM suppressions ORDER BY user_id, email`,
    ),
  });

  itWithPython(
    'takes every generated mail (552 only past SIZE) and changes only what SPEC lets its report change',
    async () => {
      await fc.assert(
        fc.asyncProperty(reportPlan, fc.nat({ max: POOL - 1 }), async (plan, index) => {
          tally.runs++;
          const aim = pool[index];
          const raw = writeReport(plan, aim);
          const before = await snapshot();
          const outcome = await sendWithNodemailer(app.inboundPort(), aim.rcpt, raw);
          const after = await snapshot();

          if (!outcome.accepted) {
            tally.refused++;
            // The only refusal a mail to a live VERP address may get: its size (SIZE is 1 MiB).
            expect({ code: outcome.code, big: raw.length > MIB - 4096 }).toEqual({ code: 552, big: true });
          }

          // No other message moves; this one only along the report edges of docs/delivery-and-deliverability.md#statuses, and only as its family allows.
          const was = new Map(before.messages.map((m) => [m.id, m.status]));
          const moved = after.messages.filter((m) => was.get(m.id) !== m.status);
          expect(moved.filter((m) => m.id !== aim.id)).toEqual([]);
          const [change] = moved.map((m) => `${was.get(m.id)}->${m.status}`);
          if (change !== undefined) {
            const allowed =
              plan.family === 'dsn'
                ? ['sent->bounced']
                : plan.family === 'arf'
                  ? ['sent->complained', 'bounced->complained']
                  : [];
            // A report naming an address that is none of the message's (a forwarder's rewrite) is
            // about the token's copy: it may bounce it, but never suppresses (checked below).
            expect(allowed).toContain(change);
            if (change.endsWith('bounced')) tally.bounced++;
            else tally.complained++;
          }

          // Suppressions: only of this message's recipient on its owner's list, only for an address failure or a complaint.
          const had = new Set(before.suppressions.map((s) => `${s.user_id} ${s.email}`));
          const added = after.suppressions.filter((s) => !had.has(`${s.user_id} ${s.email}`));
          expect(after.suppressions.length - added.length).toBe(before.suppressions.length);
          for (const s of added) {
            tally.suppressed++;
            expect({ user: s.user_id, email: s.email }).toEqual({ user: aim.userId, email: aim.self });
            expect(plan.family).not.toBe('noise');
            if (plan.family === 'dsn')
              expect({ reason: s.reason, saysAddressIsBad: saysAddressIsBad(plan), named: plan.named }).toEqual({
                reason: 'hard_bounce',
                saysAddressIsBad: true,
                named: expect.not.stringMatching(/^other$/),
              });
            if (plan.family === 'arf') expect(s.reason).toBe('complaint');
          }
        }),
        { numRuns: RUNS, ...replay },
      );

      // Still listening and answering after all of it.
      const { replies } = await converse(app.inboundPort(), [
        { cmd: 'NOOP' },
        { cmd: `RCPT TO:<postmaster@${BOUNCE_DOMAIN}>` },
      ]);
      expect(replies[0][0]).toBe(250);
      // The generators reach the changes they are meant to test, or the property proves little.
      expect(tally.runs).toBe(RUNS);
      expect(tally.bounced + tally.complained).toBeGreaterThan(0);
    },
    300_000,
  );
});
