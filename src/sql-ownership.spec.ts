import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * Data owned once: SQL lives only in repositories (`*.repository.ts`, and the `*.sql.ts` statement
 * pieces beside them) and in platform's own database and queue code, and each names only its own
 * context's tables, with no exception: a context that needs another's tables in its own statement
 * (the lifecycle's events) is handed the piece by the owner, through a port of its own
 * (docs/architecture.md#dependency-rules). Read from every SQL string of src/ (string and template
 * literals) and every entity class handed to TypeORM's data access.
 */
const SRC = __dirname;
const MIGRATIONS = join(SRC, 'platform', 'database', 'migrations');

/**
 * Which context owns each table: the one whose module holds its entity (the migrations list them
 * all). One map, read at a glance; the first test keeps it complete.
 */
const TABLE_OWNERS = new Map(
  Object.entries({
    api_keys: 'auth',
    api_key_revocations: 'auth',
    rate_limit_counters: 'auth',
    audit_log_entries: 'auth',
    members: 'auth',
    member_sessions: 'auth',
    password_resets: 'auth',
    idempotency_keys: 'sender',
    messages: 'messages',
    message_recipients: 'messages',
    message_status_events: 'messages',
    message_attachments: 'messages',
    message_mime: 'messages',
    message_counts: 'messages',
    message_count_changes: 'messages',
    attachments: 'messages',
    senders: 'messages',
    sending_domains: 'deliverability',
    suppressions: 'deliverability',
    applied_reports: 'deliverability',
    inbound_mails: 'inbound',
    inbound_attachments: 'inbound',
    webhook_events: 'webhooks',
    webhook_endpoints: 'webhooks',
    webhook_attempts: 'webhooks',
    delivery_sites: 'delivery',
    delivery_site_leases: 'delivery',
    // TypeORM's own record of the migrations run.
    migrations: 'platform',
    // Read-your-writes marks for the replica's reads (platform/database/replica).
    recent_writes: 'platform',
  }),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === MIGRATIONS ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The context a file belongs to: its first folder under src/ (main.ts and app.module.ts: none). */
function contextOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split(sep);
  return rest.length === 0 ? '(bootstrap)' : first;
}

/** Where SQL may stand: a repository or its statement pieces, or platform's own database and queue code. */
function holdsSql(file: string): boolean {
  return /\.(repository|sql)\.ts$/.test(basename(file)) || contextOf(file) === 'platform';
}

// A keyword that names a table after it, upper case as every statement here is written.
const NAMING = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\s+((?:pgboss\.)?[a-z_][a-z0-9_]*)/g;
// TypeORM calls that take an entity class and touch its table.
const DATA_ACCESS =
  /^(?:find\w*|count\w*|exists\w*|insert|update|upsert|delete|softDelete|save|remove|increment|decrement|getRepository|InjectRepository|into|from|createQueryBuilder)$/;

/** The tables `text` (a literal's text) names in SQL. */
export function tablesNamedIn(text: string): string[] {
  return [...text.matchAll(NAMING)]
    .map((match) => match[1])
    .filter((name) => TABLE_OWNERS.has(name) || name.startsWith('pgboss.'));
}

/** Entity class name → table, read from every `@Entity('table')` of src/. */
function entityTables(files: string[]): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/@Entity\('([a-z_]+)'\)[^]*?export class (\w+)/g))
      tables.set(match[2], match[1]);
  }
  return tables;
}

interface Naming {
  file: string;
  table: string;
}

/** Each table a file names: in SQL text, or by handing its entity class to data access. */
export function namingsIn(file: string, source: string, entities: Map<string, string>): Naming[] {
  const found: Naming[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      for (const table of tablesNamedIn(node.text)) found.push({ file, table });
      // Platform knows no context: not even a table's bare name, to build a statement with (the queue's sweep).
      if (contextOf(file) === 'platform' && (TABLE_OWNERS.get(node.text) ?? 'platform') !== 'platform')
        found.push({ file, table: node.text });
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => `\${} ${span.literal.text}`)].join('');
      for (const table of tablesNamedIn(text)) found.push({ file, table });
    } else if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      const [first] = node.arguments;
      if (ts.isIdentifier(callee) && DATA_ACCESS.test(callee.text) && first && ts.isIdentifier(first)) {
        const table = entities.get(first.text);
        if (table) found.push({ file, table });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}

function ownerOf(table: string): string | undefined {
  return table.startsWith('pgboss.') ? 'platform' : TABLE_OWNERS.get(table);
}

/** What breaks the rule: SQL where none may stand, or a table of another context. */
export function violationsOf(namings: Naming[]): string[] {
  const found = namings.flatMap(({ file, table }) => {
    const where = relative(SRC, file);
    if (!holdsSql(file)) return [`${where} names ${table} outside a repository`];
    const owner = ownerOf(table);
    if (owner === contextOf(file)) return [];
    return [`${where} names ${table}, a table of ${owner}`];
  });
  return [...new Set(found)];
}

describe('SQL ownership', () => {
  const files = sourceFiles(SRC);
  const entities = entityTables(files);
  const namings = files.flatMap((file) => namingsIn(file, readFileSync(file, 'utf8'), entities));

  it('gives every table of the migrations and entities one owner', () => {
    const created = readdirSync(MIGRATIONS).flatMap((name) =>
      [...readFileSync(join(MIGRATIONS, name), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map(
        (match) => match[1],
      ),
    );
    const tables = [...new Set([...created, ...entities.values()])].sort();
    expect(tables.length).toBeGreaterThan(15);
    expect(tables.filter((table) => !TABLE_OWNERS.has(table))).toEqual([]);
  });

  it('finds the SQL of src/ (the check reads what it should)', () => {
    expect(namings.length).toBeGreaterThan(50);
    expect(namings.map((n) => n.table)).toEqual(expect.arrayContaining(['messages', 'webhook_events', 'pgboss.job']));
  });

  it('keeps SQL in repositories, each naming only its own context’s tables', () => {
    expect(violationsOf(namings)).toEqual([]);
  });

  it('reports a use case that writes SQL, a repository naming another context’s table, a queue naming one', () => {
    const use = join(SRC, 'deliverability', 'bounces', 'x.use-case.ts');
    const repository = join(SRC, 'delivery', 'x.repository.ts');
    const queue = join(SRC, 'platform', 'queue', 'x-queue.ts');
    const planted = [
      ...namingsIn(use, "const sql = `DELETE FROM suppressions WHERE user_id = ${'$1'}`;", entities),
      ...namingsIn(repository, "q.query('SELECT a.content FROM message_attachments ma JOIN attachments a')", entities),
      ...namingsIn(repository, 'manager.findOne(IdempotencyKeyEntity, {})', entities),
      ...namingsIn(queue, "this.sweep({ table: 'webhook_events', key: 'eventId' })", entities),
    ];
    expect(violationsOf(planted)).toEqual([
      'deliverability/bounces/x.use-case.ts names suppressions outside a repository',
      'delivery/x.repository.ts names message_attachments, a table of messages',
      'delivery/x.repository.ts names attachments, a table of messages',
      'delivery/x.repository.ts names idempotency_keys, a table of sender',
      'platform/queue/x-queue.ts names webhook_events, a table of webhooks',
    ]);
  });
});
