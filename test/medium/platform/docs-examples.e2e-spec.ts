// The OpenAPI document as a newcomer uses it in Swagger UI: its examples must work as given, each
// error must show its own example, and what it states (headers, closed bodies, formats, limits)
// must be what the server does. A validator nobody here wrote checks the document itself.
import { execFile } from 'node:child_process';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/child-processes';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

interface Example {
  value: unknown;
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}
interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, Media> }>;
}
interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  example?: unknown;
  default?: unknown;
  maxItems?: number;
  items?: Schema;
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the OpenAPI document, used as given (docs/api.md#routes)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  const operation = (path: string, method: string): Operation => doc.paths[path][method];
  const schemaOf = (name: string): Schema => doc.components.schemas[name];
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ path, method, op })),
    );
  /** What Swagger UI's "Try it out" puts in the body: the first named example, else the example. */
  const bodyExamples = (op: Operation): unknown[] => {
    const media = op.requestBody!.content['application/json'];
    return media.examples ? Object.values(media.examples).map((e) => e.value) : [media.example];
  };

  /** The query as Swagger UI fills the fields in: the example, else the schema's example, else its default. */
  const exampleQuery = (op: Operation): Record<string, string> => {
    const query: Record<string, string> = {};
    for (const parameter of op.parameters!.filter((p) => p.in === 'query')) {
      const value = parameter.example ?? parameter.schema?.example ?? parameter.schema?.default;
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a query parameter's example is a string, number or boolean
      if (value !== undefined) query[parameter.name] = String(value);
    }
    return query;
  };

  /** POST /sender/send with its first example, accepted. */
  const sendFirstExample = (userId: string) =>
    t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(bodyExamples(operation('/sender/send', 'post'))[0] as object)
      .expect(201);

  beforeAll(async () => {
    t = await bootTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });

  afterAll(() => t.close());

  it('is valid OpenAPI by @apidevtools/swagger-parser', async () => {
    const validator = join(PROJECT_ROOT, 'test/support/validate-openapi.mjs');

    const outcome = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [validator], (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stderr }),
      );
      child.stdin!.end(JSON.stringify(doc));
    });

    expect(outcome).toEqual({ code: 0, stderr: '' });
  });

  it('has request examples for POST /sender/send that are each accepted as given', async () => {
    const examples = bodyExamples(operation('/sender/send', 'post'));
    expect(examples.length).toBeGreaterThan(0);

    for (const example of examples) {
      expect(example).toBeDefined();
      const response = await t.http
        .post('/sender/send')
        .set(bearer(newUserId()))
        .send(example as object);
      // An example with a scheduledAt shows a scheduled send: one that waits for its moment.
      const { scheduledAt } = example as { scheduledAt?: string };
      expect({ status: response.status, body: response.body }).toMatchObject({
        status: 201,
        body: {
          status: scheduledAt ? 'scheduled' : 'queued',
          scheduledAt: scheduledAt ? new Date(scheduledAt).toISOString() : null,
        },
      });
    }
  });

  it('has request examples for POST /sender/send/batch that are each accepted as given, with problems and headers documented', async () => {
    const batch = operation('/sender/send/batch', 'post');
    const examples = bodyExamples(batch);
    expect(examples.length).toBeGreaterThan(0);

    for (const example of examples) {
      const response = await t.http
        .post('/sender/send/batch')
        .set(bearer(newUserId()))
        .send(example as object);
      expect({ status: response.status, count: response.body.messages?.length }).toEqual({
        status: 201,
        count: (example as { messages: unknown[] }).messages.length,
      });
      for (const message of response.body.messages) expect(message).toMatchObject({ status: 'queued' });
    }
    expect(
      Object.keys(batch.responses)
        .filter((s) => Number(s) >= 400)
        .sort(),
    ).toEqual(['400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    expect(batch.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(Object.keys(batch.responses['201'].headers ?? {})).toEqual(
      expect.arrayContaining(['Idempotent-Replayed', 'RateLimit-Remaining']),
    );
  });

  it('has request examples for POST /user/suppressions that are each accepted as given, with the scope they ask for', async () => {
    const userId = newUserId('docs-suppressions');
    const examples = bodyExamples(operation('/user/suppressions', 'post')) as { email: string; scope?: string }[];
    expect(examples.map((e) => e.scope ?? 'all').sort()).toEqual(['all', 'bulk']);

    for (const example of examples) {
      const { body } = await t.http.post('/user/suppressions').set(bearer(userId)).send(example).expect(201);
      expect(body).toMatchObject({ email: example.email, reason: 'manual', scope: example.scope ?? 'all' });
    }
  });

  it('lists the message just sent when the list is called with its own parameter examples', async () => {
    const userId = newUserId();
    const sent = await sendFirstExample(userId);
    const { body } = await t.http
      .get('/user/messages')
      .query(exampleQuery(operation('/user/messages', 'get')))
      .set(bearer(userId))
      .expect(200);

    expect(body.messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
  });

  it('reads back the message just sent with the read-back endpoints as documented, and stats with its own parameter examples', async () => {
    const userId = newUserId();
    const sent = await sendFirstExample(userId);
    const stats = await t.http
      .get('/user/stats')
      .query(exampleQuery(operation('/user/stats', 'get')))
      .set(bearer(userId))
      .expect(200);
    expect(stats.body.totals.accepted).toBe(1);
    const content = await t.http.get(`/user/messages/${sent.body.id}/content`).set(bearer(userId)).expect(200);
    expect(Object.keys(content.body).sort()).toEqual(
      Object.keys(schemaOf('MessageContentResponse').properties!).sort(),
    );
    for (const path of ['/user/messages/{id}/raw', '/user/messages/{id}/attachments/{index}']) {
      expect(Object.keys(operation(path, 'get').responses['200'].headers ?? {})).toEqual(
        expect.arrayContaining(['Content-Disposition', 'X-Content-Type-Options', 'Content-Security-Policy']),
      );
    }
    const raw = await t.http.get(`/user/messages/${sent.body.id}/raw`).set(bearer(userId)).expect(200);
    expect(Object.keys(operation('/user/messages/{id}/raw', 'get').responses['200'].content!)).toEqual([
      raw.headers['content-type'],
    ]);
  });

  it('gives every error response an example of its own status', () => {
    const checked: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses).filter(([code]) => Number(code) >= 400)) {
        const example = response.content?.['application/problem+json']?.example as Record<string, unknown> | undefined;
        expect({ at: `${method} ${path} ${status}`, example }).toEqual({
          at: `${method} ${path} ${status}`,
          example: expect.objectContaining({
            type: 'about:blank',
            status: Number(status),
            title: STATUS_CODES[Number(status)],
            detail: expect.any(String),
          }),
        });
        checked.push(status);
      }
    }
    expect(new Set(checked)).toEqual(
      new Set(['400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']),
    );
  });

  it('documents the headers of a send, which the server sends', async () => {
    const send = operation('/sender/send', 'post');
    expect(send.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(Object.keys(send.responses['201'].headers ?? {}).sort()).toEqual([
      'Idempotent-Replayed',
      'Location',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-Request-Id',
    ]);
    expect(Object.keys(send.responses['429'].headers ?? {})).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Reset']),
    );
    expect(Object.keys(send.responses['503'].headers ?? {})).toContain('Retry-After');
    expect(Object.keys(send.responses['401'].headers ?? {})).toContain('WWW-Authenticate');

    const [example] = bodyExamples(send);
    const first = await t.http
      .post('/sender/send')
      .set(bearer(newUserId()))
      .set('Idempotency-Key', 'docs-1')
      .send(example as object)
      .expect(201);
    for (const header of ['location', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id']) {
      expect(first.headers).toHaveProperty(header);
    }
  });

  it('documents X-Request-Id on every response', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect({ at: `${method} ${path} ${status}`, headers: Object.keys(response.headers ?? {}) }).toEqual({
          at: `${method} ${path} ${status}`,
          headers: expect.arrayContaining(['X-Request-Id']),
        });
      }
    }
  });

  it('marks the JSON bodies closed, as the server refuses unknown fields', () => {
    for (const name of ['SendMessageDto', 'SendBatchDto', 'InlineAttachmentDto', 'WebhookSettingDto']) {
      expect({ name, additionalProperties: schemaOf(name).additionalProperties }).toEqual({
        name,
        additionalProperties: false,
      });
    }
  });

  it('gives the bare-address filters format email, and no mailbox field a format a display name would fail', () => {
    const send = schemaOf('SendMessageDto').properties!;
    const message = schemaOf('MessageResponse').properties!;
    const listParameters = operation('/user/messages', 'get').parameters!;

    // docs/api.md#sending: every address field of a send takes a mailbox (`Ada <ada@example.com>`), which `format: email` refuses.
    const mailboxFormats = [
      send.sender.format,
      // Each is one mailbox as a string or a list of them (as Resend takes them): both branches.
      ...['to', 'cc', 'bcc', 'replyTo'].flatMap((f) => {
        const [one, many] = send[f].oneOf!;
        return [one.format, many.items!.format];
      }),
      message.sender.format,
      message.to.items!.format,
    ];
    expect(mailboxFormats).toEqual(mailboxFormats.map(() => undefined));
    for (const name of ['fromEmail', 'toEmail']) {
      expect(listParameters.find((p) => p.name === name)?.schema?.format).toBe('email');
    }
  });

  it('states the array limits that the server enforces', async () => {
    const send = schemaOf('SendMessageDto').properties!;

    expect([send.to.maxItems, send.attachments.maxItems, send.attachmentIds.maxItems]).toEqual([
      t.config.limits.maxRecipients,
      20,
      20,
    ]);
    const [example] = bodyExamples(operation('/sender/send', 'post'));
    const tooMany = Array.from({ length: send.to.maxItems! + 1 }, (_, i) => `r${i}@example.com`);
    const response = await t.http
      .post('/sender/send')
      .set(bearer(newUserId()))
      .send({ ...(example as object), to: tooMany })
      .expect(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'to' })]);
  });
});
