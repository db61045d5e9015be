// @mailroom/sdk's emails against the real app (packages/sdk/README.md): every method, the problems
// the API answers (400 by field, 401, 403, 404, 409, 422) as MailroomErrors, and listAll's walk.
import { randomUUID } from 'node:crypto';
import { MailroomError } from '../../../packages/sdk/src';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

/** The largest upload this suite's app takes: a file one byte over is a 413. */
const MAX_ATTACHMENT_BYTES = 64 * 1024;
const PDF = Buffer.from('%PDF-1.4 bytes of an attachment \u00ff', 'latin1');

describe('the SDK: emails', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await bootTestApp({ MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES) });
    baseUrl = await baseUrlOf(t);
  });
  afterAll(() => t.close());

  const minimal = { sender: 'billing@example.com', to: ['ada@example.com'], subject: 'Invoice', text: 'Hello Ada' };

  it('sends with only the required fields, and reads the message back', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('send'));
    const sent = await mailroom.emails.send(minimal);
    expect(sent).toMatchObject({ status: 'queued', subject: 'Invoice', priority: 'normal' });
    expect(await mailroom.emails.get(sent.id)).toMatchObject({ id: sent.id, status: 'queued' });
  });

  it('reads back the content, an attachment and the raw message as bytes', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('content'));
    const sent = await mailroom.emails.send({
      ...minimal,
      html: '<p>Hello Ada</p>',
      attachments: [{ fileName: 'invoice.pdf', content: PDF.toString('base64') }],
    });
    const content = await mailroom.emails.content(sent.id);
    expect(content).toMatchObject({ text: 'Hello Ada', html: '<p>Hello Ada</p>', headers: {} });
    expect(content.attachments).toMatchObject([
      { index: 0, fileName: 'invoice.pdf', contentType: 'application/pdf', size: PDF.length },
    ]);
    expect(Buffer.from(await mailroom.emails.attachment(sent.id, 0))).toEqual(PDF);
    const raw = Buffer.from(await mailroom.emails.raw(sent.id)).toString('latin1');
    expect(raw).toMatch(/^Subject: Invoice\r$/m);
    expect(raw).toContain(PDF.toString('base64'));
  });

  it('uploads a file, of the largest size and not one byte more, and sends it by its id', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('upload'));
    const largest = Buffer.alloc(MAX_ATTACHMENT_BYTES, 'x');
    const stored = await mailroom.attachments.upload(largest, { fileName: 'notes.txt', contentType: 'text/plain' });
    expect(stored).toMatchObject({ fileName: 'notes.txt', contentType: 'text/plain', size: MAX_ATTACHMENT_BYTES });
    const tooLarge = await thrown(
      mailroom.attachments.upload(Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 'x'), { fileName: 'more.txt' }),
    );
    expect(tooLarge).toBeInstanceOf(MailroomError);
    expect(tooLarge).toMatchObject({ status: 413 });

    const pdf = await mailroom.attachments.upload(new Blob([PDF], { type: 'application/pdf' }), {
      fileName: 'invoice.pdf',
    });
    const sent = await mailroom.emails.send({ ...minimal, attachmentIds: [pdf.id] });
    const { attachments } = await mailroom.emails.content(sent.id);
    expect(attachments).toMatchObject([{ fileName: 'invoice.pdf', contentType: 'application/pdf', size: PDF.length }]);
    expect(Buffer.from(await mailroom.emails.attachment(sent.id, 0))).toEqual(PDF);
  });

  it('sends a batch, in order', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('batch'));
    const batch = await mailroom.emails.sendBatch({
      messages: [minimal, { ...minimal, subject: 'Second', priority: 'high' }],
    });
    expect(batch.messages.map((message) => [message.subject, message.priority])).toEqual([
      ['Invoice', 'normal'],
      ['Second', 'high'],
    ]);
  });

  it('repeats a send with its Idempotency-Key as the first answer, and refuses another body with it (422)', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('idem'));
    const idempotencyKey = randomUUID();
    const first = await mailroom.emails.send(minimal, { idempotencyKey });
    const again = await mailroom.emails.send(minimal, { idempotencyKey });
    expect(again.id).toBe(first.id);
    expect((await mailroom.emails.list()).total).toBe(1);
    const other = await thrown(mailroom.emails.send({ ...minimal, subject: 'Other' }, { idempotencyKey }));
    expect(other).toBeInstanceOf(MailroomError);
    expect(other).toMatchObject({ status: 422, title: 'Unprocessable Entity' });
    // Without a key of the caller's, each send is its own.
    await mailroom.emails.send(minimal);
    await mailroom.emails.send(minimal);
    expect((await mailroom.emails.list()).total).toBe(3);
  });

  it('cancels a message, and answers a second cancel with a 409', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('cancel'));
    const scheduled = await mailroom.emails.send({
      ...minimal,
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.status).toBe('scheduled');
    expect(await mailroom.emails.cancel(scheduled.id)).toMatchObject({ id: scheduled.id, status: 'canceled' });
    const again = await thrown(mailroom.emails.cancel(scheduled.id));
    expect(again).toMatchObject({ status: 409, title: 'Conflict', errors: [] });
    expect(again.detail).toContain('canceled');
  });

  it('lists one page with statuses given as an array', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('list'));
    const queued = await mailroom.emails.send(minimal);
    const canceled = await mailroom.emails.send(minimal);
    await mailroom.emails.cancel(canceled.id);
    const inHour = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await mailroom.emails.send({ ...minimal, scheduledAt: inHour });

    const ids = async (statuses: ('queued' | 'canceled' | 'scheduled')[]) =>
      (await mailroom.emails.list({ statuses })).messages.map((message) => message.id).sort();
    expect(await ids(['canceled'])).toEqual([canceled.id]);
    expect(await ids(['queued', 'scheduled'])).toEqual([queued.id, scheduled.id].sort());
    expect(await ids([])).toEqual([queued.id, canceled.id, scheduled.id].sort());
    const page = await mailroom.emails.list({ take: 2 });
    expect(page).toMatchObject({ take: 2, page: 1, total: 3, totalPages: 2, hasNext: true });
  });

  it('walks every page with listAll, newest first, and stops after the last', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('walk'));
    const sent = [];
    for (let i = 0; i < 7; i++) sent.push((await mailroom.emails.send({ ...minimal, subject: `n${i}` })).id);
    const walked = [];
    for await (const message of mailroom.emails.listAll({ take: 3 })) walked.push(message.id);
    expect(walked).toEqual([...sent].reverse());
    // From a later page, and with a filter: what is left.
    const rest = [];
    for await (const message of mailroom.emails.listAll({ take: 3, page: 3 })) rest.push(message.id);
    expect(rest).toEqual([sent[0]]);
    const none = [];
    for await (const message of mailroom.emails.listAll({ statuses: ['sent'] })) none.push(message);
    expect(none).toEqual([]);
  });

  it('throws a 400 with every failing field, and a request id to quote', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('invalid'));
    // A caller that skips the types (plain JavaScript) gets the server's answer.
    const invalid = { sender: 'not an address', to: [], subject: '' } as unknown as typeof minimal;
    const error = await thrown(mailroom.emails.send(invalid));
    expect(error).toBeInstanceOf(MailroomError);
    expect(error).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(error.errors.map((field: { field: string }) => field.field)).toEqual(
      expect.arrayContaining(['sender', 'to', 'subject']),
    );
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.problem.requestId).toBe(error.requestId);
    const bad = await thrown(mailroom.emails.list({ take: 1000 }));
    expect(bad.errors).toEqual([expect.objectContaining({ field: 'take' })]);
  });

  it('throws a 401 for a credential the server refuses, and a 404 for a message that is not the caller’s', async () => {
    const stranger = sdkAs(baseUrl, 'ignored', { token: 'not-a-jwt' });
    expect(await thrown(stranger.emails.list())).toMatchObject({ status: 401, title: 'Unauthorized' });
    const owner = sdkAs(baseUrl, newUserId('owner'));
    const sent = await owner.emails.send(minimal);
    const other = sdkAs(baseUrl, newUserId('other'));
    for (const call of [other.emails.get(sent.id), other.emails.cancel(sent.id), other.emails.raw(sent.id)])
      expect(await thrown(call)).toMatchObject({ status: 404, title: 'Not Found' });
    expect(await thrown(owner.emails.attachment(sent.id, 3))).toMatchObject({ status: 404 });
  });

  it('throws a 403 for an API key without the scope', async () => {
    const userId = newUserId('scopes');
    const created = await sdkAs(baseUrl, userId).apiKeys.create({ name: 'reader', scopes: ['read'] });
    const reader = sdkAs(baseUrl, userId, { token: undefined, apiKey: created.key });
    expect(await reader.emails.list()).toMatchObject({ total: 0 });
    expect(await thrown(reader.emails.send(minimal))).toMatchObject({ status: 403, title: 'Forbidden' });
  });
});
