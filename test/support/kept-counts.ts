import { DataSource } from 'typeorm';

/**
 * Every count MessageCounts1764086400000 and RecipientCounts1765382400000 keep for `userId`
 * (message_counts plus its pending changes, zeros left out), and the same counts taken plainly over
 * the rows that exist now (recipients by fate through the migration's own reading of a row's
 * fates: what the triggers' increments must add up to), each sorted the same way: a test expects
 * them equal.
 */
export async function keptAndPlainCounts(db: DataSource, userId: string): Promise<{ kept: string[]; plain: string[] }> {
  const line = `dimension || ' ' || value || ' ' || status || ' = ' || n`;
  const [kept, plain]: { line: string }[][] = await Promise.all([
    db.query(
      `SELECT ${line} AS line FROM (
         SELECT dimension, value, status, sum(n) AS n FROM (
           SELECT dimension, value, status, n FROM message_counts WHERE user_id = $1
           UNION ALL SELECT dimension, value, status, delta FROM message_count_changes WHERE user_id = $1
         ) c GROUP BY 1, 2, 3 HAVING sum(n) <> 0
       ) k ORDER BY 1`,
      [userId],
    ),
    db.query(
      `SELECT ${line} AS line FROM (
         SELECT 'status' AS dimension, '' AS value, status, count(*) AS n FROM messages WHERE user_id = $1 GROUP BY 3
         UNION ALL SELECT 'day', to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), status, count(*) FROM messages WHERE user_id = $1 GROUP BY 2, 3
         UNION ALL SELECT 'sender', sender_id::text, '', count(*) FROM messages WHERE user_id = $1 GROUP BY 2
         UNION ALL SELECT 'bulk', bulk_sending_id, '', count(*) FROM messages WHERE user_id = $1 AND bulk_sending_id IS NOT NULL GROUP BY 2
         UNION ALL SELECT 'recipient', email, '', count(*) FROM message_recipients WHERE user_id = $1 GROUP BY 2
         UNION ALL SELECT 'recipient_day', to_char(m.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), c.fate, sum(c.n)
           FROM messages m, LATERAL recipient_fate_counts(m.recipient_fates, m.status,
             cardinality(m.recipients) + coalesce(cardinality(m.cc), 0) + coalesce(cardinality(m.bcc), 0)) c
           WHERE m.user_id = $1 GROUP BY 2, 3
       ) p ORDER BY 1`,
      [userId],
    ),
  ]);
  return { kept: kept.map((r) => r.line), plain: plain.map((r) => r.line) };
}
