// node -r ts-node/register/transpile-only bench/partition-purge.bench.ts [--messages 100000]
// Retention's two designs, their purge step alone, on the bench server (DATABASE_URL's, or the
// embedded one in bench/out), in a scratch database dropped at the end: a month of messages with
// two recipients and three history entries each, in plain tables with cascading foreign keys
// (what Mailroom has: deleted 1,000 messages a transaction, oldest first) and in tables
// partitioned by month (the month detached and dropped). Neither carries Mailroom's kept-count
// triggers or queue rows, so this compares the designs, not Mailroom's purge.
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { createDatabaseIfMissing } from '../src/platform/database/embedded-postgres';
import { benchListDatabase } from './list-database';
import { runBench } from './support';

const NAME = 'mailroom_partition_bench';
const BATCH = 1_000;

const SCHEMA = `
  CREATE TABLE plain_messages (id uuid PRIMARY KEY, user_id text NOT NULL, sent_at timestamptz NOT NULL, subject text NOT NULL);
  CREATE INDEX ON plain_messages (sent_at, id);
  CREATE TABLE plain_recipients (message_id uuid NOT NULL REFERENCES plain_messages ON DELETE CASCADE, email text NOT NULL);
  CREATE INDEX ON plain_recipients (message_id);
  CREATE TABLE plain_history (message_id uuid NOT NULL REFERENCES plain_messages ON DELETE CASCADE, status text NOT NULL, at timestamptz NOT NULL);
  CREATE INDEX ON plain_history (message_id);

  CREATE TABLE part_messages (id uuid NOT NULL, user_id text NOT NULL, sent_at timestamptz NOT NULL, subject text NOT NULL, PRIMARY KEY (id, sent_at)) PARTITION BY RANGE (sent_at);
  CREATE TABLE part_recipients (message_id uuid NOT NULL, sent_at timestamptz NOT NULL, email text NOT NULL,
    FOREIGN KEY (message_id, sent_at) REFERENCES part_messages ON DELETE CASCADE) PARTITION BY RANGE (sent_at);
  CREATE TABLE part_history (message_id uuid NOT NULL, sent_at timestamptz NOT NULL, status text NOT NULL, at timestamptz NOT NULL,
    FOREIGN KEY (message_id, sent_at) REFERENCES part_messages ON DELETE CASCADE) PARTITION BY RANGE (sent_at);
`;

const MONTHS = [
  ['2026_10', '2026-10-01', '2026-11-01'],
  ['2026_11', '2026-11-01', '2026-12-01'],
];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' } } });
  const messages = Number(values.messages);
  const server = await benchListDatabase();
  const url = new URL(server.url);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await createDatabaseIfMissing(url.toString(), NAME);
  url.pathname = `/${NAME}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(SCHEMA);
    for (const [suffix, from, to] of MONTHS) {
      for (const table of ['messages', 'recipients', 'history']) {
        await client.query(
          `CREATE TABLE part_${table}_${suffix} PARTITION OF part_${table} FOR VALUES FROM ('${from}') TO ('${to}')`,
        );
      }
    }
    // The old month (October) and as many messages in the month kept (November).
    for (const [prefix, keyed] of [
      ['plain', false],
      ['part', true],
    ] as const) {
      for (const month of ['2026-10-01', '2026-11-01']) {
        await client.query(
          `INSERT INTO ${prefix}_messages SELECT gen_random_uuid(), 'bench', $1::timestamptz + (i % 2592000) * interval '1 second', 'Subject ' || i FROM generate_series(1, $2) i`,
          [month, messages],
        );
      }
      const sentAt = keyed ? ', sent_at' : '';
      await client.query(
        `INSERT INTO ${prefix}_recipients SELECT id${sentAt}, 'r' || n || '@example.com' FROM ${prefix}_messages, generate_series(1, 2) n`,
      );
      await client.query(
        `INSERT INTO ${prefix}_history SELECT id${sentAt}, s, sent_at FROM ${prefix}_messages, unnest(ARRAY['queued', 'sending', 'sent']) s`,
      );
    }
    await client.query('VACUUM ANALYZE');

    // Plain tables: Mailroom's way, a transaction of the BATCH oldest messages at a time.
    const rowsStarted = performance.now();
    let deleted = 0;
    for (;;) {
      const { rowCount } = await client.query(
        `DELETE FROM plain_messages WHERE id IN (SELECT id FROM plain_messages WHERE sent_at < '2026-11-01' ORDER BY sent_at, id LIMIT ${BATCH})`,
      );
      if (!rowCount) break;
      deleted += rowCount;
    }
    const rowsMs = performance.now() - rowsStarted;

    // Partitions: the month's three partitions detached and dropped, children first.
    const dropStarted = performance.now();
    await client.query('BEGIN');
    for (const table of ['history', 'recipients', 'messages']) {
      await client.query(`ALTER TABLE part_${table} DETACH PARTITION part_${table}_2026_10`);
      await client.query(`DROP TABLE part_${table}_2026_10`);
    }
    await client.query('COMMIT');
    const dropMs = performance.now() - dropStarted;

    const [{ plain, part }] = (
      await client.query(
        `SELECT (SELECT count(*)::int FROM plain_messages) AS plain, (SELECT count(*)::int FROM part_messages) AS part`,
      )
    ).rows;
    if (deleted !== messages || plain !== messages || part !== messages)
      throw new Error(
        `expected ${messages} purged and ${messages} kept in each design; got ${deleted} purged, ${plain} and ${part} kept`,
      );
    console.log(
      `\n| design | purge of a month (${messages} messages, 2 recipients and 3 history entries each) | rate |`,
    );
    console.log('|---|---|---|');
    console.log(
      `| rows: DELETE, ${BATCH} oldest a transaction, cascading | ${(rowsMs / 1000).toFixed(1)} s | ${Math.round(messages / (rowsMs / 1000))} msg/s |`,
    );
    console.log(`| monthly partitions: DETACH + DROP | ${dropMs.toFixed(0)} ms | — |`);
  } finally {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await admin.end();
    await server.close();
  }
}

runBench(main);
