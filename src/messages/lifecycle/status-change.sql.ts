import { sqlList } from '../../platform/database/sql-list';
import type { EventFanOut } from './event-fan-out';
import { messageOutboxCte, OUTBOX_IDS_BY_MESSAGE, OUTBOX_READS } from './message-events.sql';
import { RECIPIENT_EVENT_STATUSES, STILL_TO_TRY } from '../recipient-fates';
import { countsAttempt, fixedTarget, guardSql, TransitionName } from './transitions';

/** Now, as a RecipientFate's `at` reads: ISO 8601 UTC with milliseconds. */
const NOW_ISO = `to_char(date_trunc('milliseconds', clock_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The CTE `recipient_changes`: the one place where a recipient's fate changes (docs/delivery-and-deliverability.md#statuses), one row
 * per recipient whose status or detail a change (`change`, with `fates`: FateChange[] as
 * {p, k, s, d, r, o}) moves, read from `source` (rows with message_id and fates). A complained recipient
 * stays so, a bounced one moves only to complained, and the list suppresses only a recipient still
 * to be tried (a retry's claim leaves one the relay took or refused as it is). With `release`, recipients shown suppressed
 * and not named again go back to pending (taken off the list since: the claim judges again), unless
 * the change keeps them (`keep_suppressed`: a retry that sends only its remaining copies would never send them).
 * The recipient.failed/.bounced/.complained/.suppressed events (docs/delivery-and-deliverability.md#webhooks) are read from these rows
 * (recipientEvents, into messageOutboxCte) in the same statement: in transitionSql those of the
 * messages that move (named_changes joined with `moved`), in recipientFatesSql all of them (a report
 * about a recipient, whether or not its message moves).
 */
export function recipientChangesCte(source: string, release = false): string {
  const changed = `SELECT c.message_id, u.p AS position, u.k AS recipient, u.s AS status, u.d AS detail, m.recipient_fates -> u.p ->> 'status' AS before, u.r AS refused, u.o AS route
    FROM ${source} c JOIN messages m ON m.id = c.message_id, jsonb_to_recordset(c.fates) AS u(p int, k text, s text, d text, r text, o jsonb)
    WHERE (m.recipient_fates -> u.p ->> 'status', m.recipient_fates -> u.p ->> 'detail') IS DISTINCT FROM (u.s, u.d)
      AND m.recipient_fates -> u.p ->> 'status' <> 'complained'
      AND (m.recipient_fates -> u.p ->> 'status' <> 'bounced' OR u.s = 'complained')
      AND (u.s <> 'suppressed' OR m.recipient_fates -> u.p ->> 'status' IN ${sqlList([...STILL_TO_TRY, 'suppressed'])})`;
  const released = `SELECT c.message_id, (f.i - 1)::int, null, 'pending', null, 'suppressed', null, null::jsonb
    FROM ${source} c JOIN messages m ON m.id = c.message_id, jsonb_array_elements(m.recipient_fates) WITH ORDINALITY f(v, i)
    WHERE m.recipient_fates @> '[{"status": "suppressed"}]' AND f.v ->> 'status' = 'suppressed'
      AND NOT coalesce(c.fates @> jsonb_build_array(jsonb_build_object('p', f.i - 1)), false)
      AND NOT c.keep_suppressed`;
  return `recipient_changes AS (
    ${changed}${
      release
        ? `
    UNION ALL ${released}`
        : ''
    }
  )`;
}

/**
 * The CTE `fate_patches`: each message's recipient_changes at once, as new status, detail and `at`
 * by position, so that the UPDATE applies them by a join rather than looking them up row by row.
 */
const FATE_PATCHES = `fate_patches AS (
    SELECT message_id, jsonb_object_agg(position::text, jsonb_build_object('status', status, 'detail', detail, 'at', ${NOW_ISO})
      -- The refusal's kind (RecipientFate.refused), kept only beside the failure it explains.
      || CASE WHEN refused IS NULL THEN '{}' ELSE jsonb_build_object('refused', refused) END
      -- Where the transaction that set it went (RecipientFate.route): a change that reached no server keeps the last one's.
      || CASE WHEN route IS NULL THEN '{}' ELSE jsonb_build_object('route', route) END) AS patch
    FROM recipient_changes GROUP BY message_id
  )`;

/** The new value of m.recipient_fates, with its fate_patches row `p` applied (none: as it was). */
const FATES_AFTER = `CASE WHEN p.patch IS NULL THEN m.recipient_fates ELSE (
    SELECT jsonb_agg(CASE WHEN p.patch ? (f.i - 1)::text THEN (f.v - 'refused') || (p.patch -> (f.i - 1)::text) ELSE f.v END ORDER BY f.i)
    FROM jsonb_array_elements(m.recipient_fates) WITH ORDINALITY f(v, i)
  ) END`;

/** Recipient fates after which the history names the recipient (docs/delivery-and-deliverability.md#statuses), and that are recipient events (docs/delivery-and-deliverability.md#webhooks). */
const NAMED_IN_HISTORY = sqlList(RECIPIENT_EVENT_STATUSES);

/**
 * The recipient events of a statement (messageOutboxCte): of `changes` (recipient_changes rows, one
 * per recipient), those that entered a named fate; a new detail in the same fate is no new event.
 */
const recipientEvents = (changes: string) =>
  `SELECT message_id, position, status FROM ${changes} WHERE status IN ${NAMED_IN_HISTORY} AND before IS DISTINCT FROM status`;

/**
 * The statement of recipient changes that move no message (a report about a recipient of a
 * message already bounced, or final): $1 message ids, $2 their FateChange[] as jsonb. The
 * history entry is the caller's (MessageLifecycle.note). `fanOut` writes the recipient events.
 */
export function recipientFatesSql(fanOut: EventFanOut): string {
  return `WITH change AS (
    SELECT * FROM unnest($1::uuid[], $2::jsonb[]) AS c(message_id, fates)
  ), ${recipientChangesCte('change')}, ${FATE_PATCHES}, updated AS (
    UPDATE messages m SET recipient_fates = ${FATES_AFTER}
    FROM fate_patches p WHERE m.id = p.message_id
    RETURNING m.id, ${OUTBOX_READS.map((column) => `m.${column}`).join(', ')}
  ), ${messageOutboxCte(fanOut, 'updated', false, recipientEvents('(SELECT DISTINCT ON (message_id, position) * FROM recipient_changes ORDER BY message_id, position) rc'))}
  SELECT id FROM outbox`;
}

/**
 * The one statement of an event's status changes, for a batch: the guarded UPDATE, the history
 * entries and the event outbox rows (messageOutboxCte: the message's event and its recipients'). Parameters: $1 message ids, $2 attempts, $3 target statuses (for
 * events with several), $4 history details, $5 the recipients per-recipient events name, $6 the recipients' fate changes
 * (FateChange[] as jsonb, recipientChangesCte), applied to the messages that move, $7 whether the claim keeps
 * recipients shown suppressed so (StatusChange.keepSuppressed), $8 the delay in seconds before the next attempt (for a
 * message deferred: its next_attempt_at, every other change clears it). `returning` adds columns of the changed message
 * (`m`), by output name, for callers that need them in the same round trip. `fanOut` writes the events.
 */
export function transitionSql(
  fanOut: EventFanOut,
  name: TransitionName,
  returning: Record<string, string> = {},
): string {
  // The claim and the suppress judge the suppression list again (docs/delivery-and-deliverability.md#statuses).
  const release = name === 'claim' || name === 'suppress';
  const fixed = fixedTarget(name);
  const target = fixed ? `'${fixed}'` : 'c.status';
  const extra = Object.entries(returning);
  return `WITH change AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::boolean[], $8::int[])
      AS c(message_id, attempt, status, detail, recipient, fates, keep_suppressed, retry_after_seconds)
  ), ${recipientChangesCte('change', release)}, ${FATE_PATCHES}, moved AS (
    UPDATE messages m SET status = ${target},${countsAttempt(name) ? ' delivery_attempts = c.attempt,' : ''}
      status_changes = m.status_changes + 1, updated_at = clock_timestamp(), recipient_fates = ${FATES_AFTER},
      -- The retry job starts at this moment (DeliveryRecorder queues it in this transaction).
      next_attempt_at = CASE WHEN ${target} = 'deferred'
        THEN date_trunc('milliseconds', clock_timestamp()) + make_interval(secs => coalesce(c.retry_after_seconds, 0)) END
    FROM change c LEFT JOIN fate_patches p ON p.message_id = c.message_id
    WHERE m.id = c.message_id AND (${guardSql(name)})
    RETURNING m.id, c.attempt, c.detail, c.recipient,
      -- The history's moment: for a deferral, the one its next attempt counts from, so the two
      -- differ by the delay exactly however long the statement runs; otherwise the row's change.
      coalesce(m.next_attempt_at - make_interval(secs => coalesce(c.retry_after_seconds, 0)),
        date_trunc('milliseconds', clock_timestamp())) AS changed_at,
      ${OUTBOX_READS.map((column) => `m.${column}`).join(', ')}${extra.map(([as, sql]) => `, ${sql} AS "${as}"`).join('')}
  ), named_changes AS MATERIALIZED (
    -- Recipients that failed, bounced, complained or were suppressed: few, and read again for each message moved.
    -- One per recipient, as fate_patches applies one: a batch may name a message twice (a job that
    -- outlived its lease, recorded beside its double).
    SELECT DISTINCT ON (message_id, position) * FROM recipient_changes WHERE status IN ${NAMED_IN_HISTORY}
    ORDER BY message_id, position
  ), named AS (
    -- Those of named_changes where the entry does not name one already (a report's).
    SELECT rc.*, rc.status = moved.status AND rc.detail IS NOT DISTINCT FROM moved.detail AS as_message
    FROM moved JOIN named_changes rc ON rc.message_id = moved.id
    WHERE moved.recipient IS NULL
  ), lone AS (
    -- One recipient whose fate is the message's own (a lone recipient refused): the message's entry names it.
    SELECT message_id, min(recipient) AS recipient FROM named WHERE as_message GROUP BY message_id HAVING count(*) = 1
  ), history AS (
    -- The message's entry, then one naming each other recipient that named holds, in that recipient's own fate.
    INSERT INTO message_status_events (message_id, status, at, detail, recipient, note)
    SELECT id, status, changed_at, detail, recipient, note FROM (
      SELECT moved.id, moved.status, moved.changed_at, moved.detail, coalesce(moved.recipient, lone.recipient) AS recipient, false AS note, 0 AS position
      FROM moved LEFT JOIN lone ON lone.message_id = moved.id
      UNION ALL
      SELECT named.message_id, named.status, moved.changed_at, named.detail, named.recipient, true, named.position + 1
      FROM named JOIN moved ON moved.id = named.message_id
      WHERE NOT EXISTS (SELECT 1 FROM lone WHERE lone.message_id = named.message_id AND lone.recipient = named.recipient)
    ) entries ORDER BY id, position
  ), ${messageOutboxCte(fanOut, 'moved', true, recipientEvents('named_changes'))}
  SELECT moved.id, moved.user_id AS "userId", moved.status, moved.attempt${extra.map(([as]) => `, moved."${as}"`).join('')},
    outbox.outbox_event_ids
  FROM moved LEFT JOIN ${OUTBOX_IDS_BY_MESSAGE} outbox ON outbox.message_id = moved.id`;
}
