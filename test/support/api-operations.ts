// Every operation of the API, read from the document the app serves (/docs-json), and a well-formed
// request to each: so that a suite looping over them covers a route added tomorrow as well as today's.
import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type { DataSource } from 'typeorm';
import type { TestApp } from './test-app';

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

interface Media {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

export interface ApiOperation {
  method: Method;
  path: string;
  /** `send`, `read`, `keys`, `any` (every key) or `none` (no key), as the document states it; undefined when it states none. */
  scope: string | undefined;
  /** The member roles it is limited to beside its scope (`x-member-roles`), when it is. */
  memberRoles: string[] | undefined;
  /** Whether it declares a credential at all (a public route declares none). */
  secured: boolean;
  requestBody?: { content: Record<string, Media> };
}

/** Every operation of the served document, GET/HEAD ones included. */
export async function apiOperations(t: TestApp): Promise<ApiOperation[]> {
  const doc = (await t.http.get('/docs-json').expect(200)).body as {
    paths: Record<string, Record<string, Record<string, any>>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => (METHODS as readonly string[]).includes(method))
      .map(([method, op]) => ({
        method: method as Method,
        path,
        scope: op['x-api-key-scope'] as string | undefined,
        memberRoles: op['x-member-roles'] as string[] | undefined,
        secured: Array.isArray(op.security) && op.security.length > 0,
        requestBody: op.requestBody,
      })),
  );
}

export const isChange = (op: ApiOperation) => op.method !== 'get' && op.method !== 'head';
export const nameOf = (op: ApiOperation) => `${op.method.toUpperCase()} ${op.path}`;

/**
 * Bodies for the operations whose document gives no example; any other operation without an
 * example gets `{}`, which is enough where a refusal must come before validation (a 403 before a 400).
 */
const BODIES: Record<string, unknown> = {
  'POST /user/api-keys': { name: 'probe' },
  'POST /user/members': { email: `probe-${randomUUID()}@example.com`, role: 'viewer' },
  'PATCH /user/members/{id}': { role: 'developer' },
  'POST /domains': { name: `probe-${randomUUID().slice(0, 8)}.example.com` },
  'PATCH /domains/{id}': { receiving: true },
};

/** The request's body: the document's first example, else the table above, else `{}`. */
function bodyOf(op: ApiOperation): unknown {
  const media = op.requestBody?.content['application/json'];
  if (media?.example !== undefined) return media.example;
  const first = media?.examples && Object.values(media.examples)[0];
  if (first) return first.value;
  return BODIES[nameOf(op)] ?? {};
}

/**
 * A well-formed request to `op`: its path parameters taken from `values` (by name, then `id` by the
 * path's first segments), else a random UUID; a JSON body, or a small PDF where it takes a file.
 */
export function requestTo(
  t: TestApp,
  op: ApiOperation,
  headers: Record<string, string>,
  values: { ids?: Record<string, string>; params?: Record<string, string> } = {},
): Test {
  const path = op.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value =
      values.params?.[name] ??
      (name === 'id' ? values.ids?.[op.path.slice(0, op.path.indexOf('/{id}'))] : undefined) ??
      (name === 'index' ? '0' : randomUUID());
    return encodeURIComponent(value);
  });
  const request = t.http[op.method](path).set(headers);
  if (!op.requestBody) return request;
  if (op.requestBody.content['multipart/form-data'])
    return request.attach('file', Buffer.from('%PDF-1.4 probe'), {
      filename: 'probe.pdf',
      contentType: 'application/pdf',
    });
  if (op.requestBody.content['application/json']) return request.send(bodyOf(op) as object);
  return request;
}

/**
 * Everything stored under an account, in every table with a `user_id` or `account_id` column (so a
 * table added tomorrow too), and its members' sessions: equal before and after means nothing changed.
 * A session's last use is left out: a request of the member's own may touch it.
 */
export async function accountState(db: DataSource, accountId: string): Promise<Record<string, string>> {
  const tables: { table: string; column: string }[] = await db.query(
    `SELECT c.table_name AS "table", c.column_name AS "column" FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.column_name IN ('user_id', 'account_id')
     ORDER BY 1`,
  );
  const state: Record<string, string> = {};
  for (const { table, column } of tables) {
    const [{ digest }] = await db.query(
      `SELECT count(*) || ':' || md5(coalesce(string_agg(r::text, ',' ORDER BY r::text), '')) AS digest
       FROM "${table}" r WHERE "${column}" = $1`,
      [accountId],
    );
    state[table] = digest;
  }
  const [{ sessions }] = await db.query(
    `SELECT coalesce(string_agg(s.id::text || '@' || s.member_id::text, ',' ORDER BY s.id), '') AS sessions
     FROM member_sessions s JOIN members m ON m.id = s.member_id WHERE m.account_id = $1`,
    [accountId],
  );
  state.member_sessions = sessions;
  return state;
}
