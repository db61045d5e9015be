import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, string[]>>;
}

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, { type: string; scheme?: string }> };
  security?: unknown[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROBLEM_REF = '#/components/schemas/ProblemDetails';
const MESSAGE_REF = '#/components/schemas/MessageResponse';

describe('API documentation (docs/api.md#routes)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  const operation = (path: string, method: string): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`The document has no ${method.toUpperCase()} ${path}`);
    return found;
  };

  const schema = (ref: string | undefined): Schema => {
    expect(ref).toMatch(/^#\/components\/schemas\//);
    const found = doc.components.schemas[ref!.split('/').pop()!];
    expect(found).toBeDefined();
    return found;
  };

  beforeAll(async () => {
    t = await bootTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });

  afterAll(() => t.close());

  it('serves an OpenAPI 3 document as JSON without a token', async () => {
    const response = await t.http.get('/docs-json');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(response.body.info.title).toBe('Mailroom');
  });

  it.each([
    ['/sender/send', 'post'],
    ['/user/messages', 'get'],
    ['/user/messages/{id}', 'get'],
    ['/health', 'get'],
    ['/health/ready', 'get'],
  ])('documents %s (%s)', (path, method) => {
    expect(doc.paths[path]).toHaveProperty(method);
  });

  it('declares a bearer security scheme and requires it for the message operations', () => {
    const schemes = Object.entries(doc.components.securitySchemes ?? {}).filter(
      ([, scheme]) => scheme.type === 'http' && scheme.scheme === 'bearer',
    );
    expect(schemes).toHaveLength(1);
    const [name] = schemes[0];

    for (const [path, method] of [
      ['/sender/send', 'post'],
      ['/user/messages', 'get'],
      ['/user/messages/{id}', 'get'],
    ]) {
      expect(operation(path, method).security).toContainEqual({ [name]: [] });
    }
  });

  it('does not ask for a token on the health checks', () => {
    expect(doc.security).toBeUndefined();
    expect(operation('/health', 'get').security).toBeUndefined();
    expect(operation('/health/ready', 'get').security).toBeUndefined();
  });

  it('documents every query parameter of GET /user/messages as optional', () => {
    const parameters = operation('/user/messages', 'get').parameters ?? [];
    const query = parameters.filter((p) => p.in === 'query');

    expect(query.map((p) => p.name).sort()).toEqual([
      'bulkSending',
      'endDate',
      'fromEmail',
      'includeStatusHistory',
      'page',
      'q',
      'startDate',
      'statuses',
      'take',
      'toEmail',
    ]);
    expect(query.filter((p) => p.required)).toEqual([]);
  });

  it('documents the id path parameter of GET /user/messages/{id}', () => {
    const parameters = operation('/user/messages/{id}', 'get').parameters ?? [];

    expect(parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
  });

  it("documents the JSON body of POST /sender/send with the seed fields and docs/api.md#sending's later ones", () => {
    const body = operation('/sender/send', 'post').requestBody;
    const sut = schema(body?.content['application/json']?.schema.$ref);

    expect(Object.keys(sut.properties ?? {}).sort()).toEqual([
      'attachmentIds',
      'attachments',
      'bcc',
      'bulkSendingId',
      'cc',
      'contactId',
      'customPayload',
      'headers',
      'html',
      'priority',
      'replyTo',
      'scheduledAt',
      'sender',
      'subject',
      'text',
      'to',
      'webhook',
    ]);
    // html or text (docs/api.md#sending): neither is required on its own.
    expect([...(sut.required ?? [])].sort()).toEqual(['sender', 'subject', 'to']);
  });

  it('documents the nested parts of the send body', () => {
    const send = schema(operation('/sender/send', 'post').requestBody?.content['application/json']?.schema.$ref);
    const attachments = send.properties!.attachments as Schema & { items?: Schema };
    const webhook = send.properties!.webhook as Schema & { allOf?: Schema[] };

    const attachment = schema(attachments.items?.$ref);
    expect([...(attachment.required ?? [])].sort()).toEqual(['content', 'fileName']);
    const webhookSchema = schema(webhook.$ref ?? webhook.allOf?.[0]?.$ref);
    expect(Object.keys(webhookSchema.properties ?? {}).sort()).toEqual(['status', 'url']);
    expect(webhookSchema.required).toEqual(['url']);
  });

  it.each([
    ['/sender/send', 'post', ['400', '401']],
    ['/user/messages', 'get', ['400', '401']],
    ['/user/messages/{id}', 'get', ['401', '404']],
  ])('documents the errors of %s (%s) as problem+json', (path, method, statuses) => {
    const { responses } = operation(path, method);

    for (const status of statuses) {
      expect(responses[status]?.content?.['application/problem+json']?.schema.$ref).toBe(PROBLEM_REF);
    }
  });

  it('describes the problem body of docs/api.md#errors', () => {
    const sut = schema(PROBLEM_REF);

    expect(Object.keys(sut.properties ?? {}).sort()).toEqual([
      'detail',
      'errors',
      'requestId',
      'status',
      'title',
      'type',
    ]);
    expect([...(sut.required ?? [])].sort()).toEqual(['detail', 'requestId', 'status', 'title', 'type']);
  });

  it('documents the 201 of POST /sender/send as the Message', () => {
    const created = operation('/sender/send', 'post').responses['201'];

    expect(created?.content?.['application/json']?.schema.$ref).toBe(MESSAGE_REF);
    expect(operation('/user/messages/{id}', 'get').responses['200']?.content?.['application/json']?.schema.$ref).toBe(
      MESSAGE_REF,
    );
  });

  it('describes the Message of docs/api.md#sending', () => {
    const sut = schema(MESSAGE_REF);

    expect(sut.required).toEqual(
      expect.arrayContaining(['id', 'to', 'subject', 'senderId', 'status', 'userId', 'sentAt']),
    );
    expect(Object.keys(sut.properties ?? {})).toEqual(
      expect.arrayContaining(['sender', 'bulkSendingId', 'contactId', 'priority', 'customPayload', 'statusHistory']),
    );
  });

  it('serves Swagger UI at /docs without a token', async () => {
    const response = await t.http.get('/docs');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('swagger-ui');
  });
});

describe('errors and request ids (docs/api.md#errors)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  it('answers an unknown route with a 404 problem', async () => {
    const response = await t.http.get('/nope').set(bearer(newUserId()));

    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toEqual({
      type: expect.any(String),
      title: 'Not Found',
      status: 404,
      detail: expect.any(String),
      requestId: response.headers['x-request-id'],
    });
  });

  it('gives every request a generated id when the caller sends none', async () => {
    const first = await t.http.get('/health').expect(200);
    const second = await t.http.get('/health').expect(200);

    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('echoes a sane X-Request-Id in the header of a success', async () => {
    const response = await t.http.get('/health').set('X-Request-Id', 'abc-123');

    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('abc-123');
  });

  it('echoes a sane X-Request-Id in the header and the body of a problem', async () => {
    const response = await t.http.get('/user/messages').set('X-Request-Id', 'abc-123');

    expect(response.status).toBe(401);
    expect(response.headers['x-request-id']).toBe('abc-123');
    expect(response.body.requestId).toBe('abc-123');
  });

  it('keeps an X-Request-Id of 128 characters', async () => {
    const id = 'r'.repeat(128);

    const response = await t.http.get('/nope').set(bearer(newUserId())).set('X-Request-Id', id);

    expect(response.headers['x-request-id']).toBe(id);
    expect(response.body.requestId).toBe(id);
  });

  it.each([
    ['300 characters', 'x'.repeat(300)],
    ['129 characters', 'x'.repeat(129)],
    ['spaces', 'abc 123'],
    ['a slash', 'abc/123'],
    ['markup', '<script>alert(1)</script>'],
    ['quotes', '"abc"'],
  ])('replaces an X-Request-Id with %s by a generated one', async (_case, hostile) => {
    const response = await t.http.get('/nope').set(bearer(newUserId())).set('X-Request-Id', hostile);

    expect(response.status).toBe(404);
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(response.body.requestId).toBe(response.headers['x-request-id']);
  });
});
