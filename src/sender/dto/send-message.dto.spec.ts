import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { useContainer } from 'class-validator';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { createValidationPipe } from '../../platform/validation/validation.pipe';
import { AppConfig } from '../../platform/config/app-config';
import { ReachableWebhookUrlRule } from '../../webhooks';
import { MaxRecipientsRule } from './max-recipients.rule';
import { SendBatchDto } from './send-batch.dto';
import { SendMessageDto } from './send-message.dto';

const metadata: ArgumentMetadata = { type: 'body', metatype: SendMessageDto };
const valid = { subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'news@example.com' };
const CONFIG = {
  limits: { maxRecipients: 2, maxAttachmentBytes: 10 },
  webhooks: { allowPrivateNetworks: false },
} as AppConfig;

describe(SendMessageDto.name, () => {
  const sut = createValidationPipe();
  // What the rules read, as Nest gives them AppConfig (app.setup.ts); a test may set its own.
  let config = CONFIG;
  const rule = (c: unknown) =>
    c === MaxRecipientsRule
      ? new MaxRecipientsRule(config)
      : c === ReachableWebhookUrlRule
        ? new ReachableWebhookUrlRule(config)
        : undefined;

  beforeAll(() => useContainer({ get: rule }, { fallback: true }));
  afterEach(() => (config = CONFIG));
  afterAll(() => useContainer({ get: () => undefined }, { fallback: true }));

  const fieldsRefused = async (body: object) => {
    const error = await sut.transform({ ...valid, ...body }, metadata).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).errors;
  };

  it('accepts the four required fields alone and defaults nothing it was not given', async () => {
    const dto = await sut.transform({ ...valid }, metadata);
    expect(dto).toBeInstanceOf(SendMessageDto);
    expect(dto).toEqual(valid);
  });

  it('drops repeated recipients case-insensitively before counting them', async () => {
    const dto = await sut.transform({ ...valid, to: ['A@x.io', 'a@X.io', 'b@x.io'] }, metadata);
    expect(dto.to).toEqual(['A@x.io', 'b@x.io']);
    expect(await fieldsRefused({ to: ['a@x.io', 'b@x.io', 'c@x.io'] })).toEqual([
      { field: 'to', message: 'must have at most 2 distinct recipients' },
    ]);
  });

  it('drops repeats across to, cc and bcc by address part, and counts them together', async () => {
    const dto = await sut.transform(
      { ...valid, to: ['Ada <a@x.io>'], cc: ['A@X.io', 'B <b@x.io>'], bcc: ['b@X.io'] },
      metadata,
    );
    expect([dto.to, dto.cc, dto.bcc]).toEqual([['Ada <a@x.io>'], ['B <b@x.io>'], []]);
    expect(await fieldsRefused({ to: ['a@x.io'], cc: ['b@x.io'], bcc: ['c@x.io'] })).toEqual([
      { field: 'to', message: 'must have at most 2 distinct recipients across to, cc and bcc' },
    ]);
  });

  it('takes one address as a string in to, cc, bcc and replyTo, as a list of one (as Resend does)', async () => {
    const dto = await sut.transform(
      { ...valid, to: 'Ada <a@x.io>', cc: 'A@X.io', bcc: 'b@x.io', replyTo: 'Support <s@x.io>' },
      metadata,
    );
    expect([dto.to, dto.cc, dto.bcc, dto.replyTo]).toEqual([['Ada <a@x.io>'], [], ['b@x.io'], ['Support <s@x.io>']]);
    // A string counts against MAX_RECIPIENTS (2 here) like any entry: at the limit, and one past.
    expect((await sut.transform({ ...valid, to: 'a@x.io', cc: ['b@x.io'] }, metadata)).cc).toEqual(['b@x.io']);
    expect(await fieldsRefused({ to: 'a@x.io', cc: ['b@x.io'], bcc: 'c@x.io' })).toEqual([
      { field: 'to', message: 'must have at most 2 distinct recipients across to, cc and bcc' },
    ]);
    expect((await fieldsRefused({ to: 'not an address' })).map((e) => e.field)).toEqual(['to']);
    expect((await fieldsRefused({ to: '' })).map((e) => e.field)).toEqual(['to']);
    expect((await fieldsRefused({ to: 42 })).map((e) => e.field)).toEqual(['to']);
  });

  it('names each failing entry of cc, bcc, replyTo and headers', async () => {
    expect(
      await fieldsRefused({
        cc: ['Lovelace, Ada <ada@x.io>'],
        replyTo: ['x'],
        headers: { 'X-Ok': 'v', From: 'me', 'X-A': 'a\nb' },
      }),
    ).toEqual([
      {
        field: 'cc[0]',
        message: 'must be an email address (name@example.com) or a mailbox (Ada Lovelace <ada@example.com>)',
      },
      {
        field: 'replyTo[0]',
        message: 'must be an email address (name@example.com) or a mailbox (Ada Lovelace <ada@example.com>)',
      },
      { field: 'headers.From', message: 'is a header the service writes itself' },
      { field: 'headers.X-A', message: 'must not contain line breaks or control characters' },
    ]);
  });

  it.each([
    [{ subject: 'x'.repeat(999) }, 'subject'],
    [{ subject: 'a\rb' }, 'subject'],
    [{ html: 'é'.repeat(2_621_441) }, 'html'],
    [{ to: ['a@x.io', 'a@localhost'] }, 'to'],
    [{ sender: 'a@x.io, b@x.io' }, 'sender'],
    [{ sender: 'Ada' }, 'sender'],
    [{ bcc: { address: 'b@x.io' } }, 'bcc'],
    [{ replyTo: Array.from({ length: 11 }, (_, i) => `r${i}@x.io`) }, 'replyTo'],
    [{ text: '' }, 'text'],
    [{ headers: ['X-A'] }, 'headers'],
    [
      { attachments: [{ fileName: 'a', content: 'YQ==', contentType: 'text/plain; charset=x' }] },
      'attachments[0].contentType',
    ],
    [{ attachments: [{ fileName: 'a\\b', content: '' }] }, 'attachments[0].fileName'],
    [{ attachments: [{ fileName: 'a', content: 'YQ' }] }, 'attachments[0].content'],
    [{ attachmentIds: Array.from({ length: 21 }, () => '6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a') }, 'attachmentIds'],
    [{ customPayload: { '': 'empty key' } }, 'customPayload'],
    [{ priority: 'HIGH' }, 'priority'],
    [{ webhook: { url: 'https://h.example.com', status: ['queued', 'delivered'] } }, 'webhook.status'],
    [{ webhook: { url: 123 } }, 'webhook.url'],
  ])('refuses %j naming %s', async (body, field) => {
    expect((await fieldsRefused(body)).map((e) => e.field)).toEqual([field]);
  });

  describe('html or text (docs/api.md#sending)', () => {
    const { html: _html, ...withoutHtml } = valid;
    const transform = (body: object) => sut.transform(body, metadata);
    const refused = async (body: object) =>
      ((await transform(body).catch((e: unknown) => e)) as InvalidInputError).errors;

    it('accepts text alone, and html given as null beside it', async () => {
      expect(await transform({ ...withoutHtml, text: 'Hi' })).toEqual({ ...withoutHtml, text: 'Hi' });
      expect((await transform({ ...withoutHtml, html: null, text: 'Hi' })).html).toBeNull();
    });

    it('names html, and text in its message, when neither is given', async () => {
      const message = 'is required when text is absent (give either or both)';
      expect(await refused(withoutHtml)).toEqual([{ field: 'html', message }]);
      expect(await refused({ ...withoutHtml, html: null, text: null })).toEqual([{ field: 'html', message }]);
    });

    it('takes text of 5 MiB without html, and refuses one byte more or an empty one', async () => {
      const fiveMiB = 'é'.repeat(2.5 * 1024 * 1024);
      expect((await transform({ ...withoutHtml, text: fiveMiB })).text).toBe(fiveMiB);
      expect(await refused({ ...withoutHtml, text: `${fiveMiB}x` })).toEqual([
        { field: 'text', message: 'must be at most 5242880 bytes' },
      ]);
      expect(await refused({ ...withoutHtml, text: '' })).toEqual([{ field: 'text', message: 'must not be empty' }]);
    });
  });

  describe('attachments[].contentId', () => {
    const image = (contentId: unknown) => ({ fileName: 'logo.png', content: 'YQ==', contentId });

    it('takes 1 to 255 letters, digits and . - _ @', async () => {
      const longest = `${'a'.repeat(243)}@example.com`;
      expect(longest).toHaveLength(255);
      const dto: SendMessageDto = await sut.transform(
        { ...valid, attachments: [image(longest), image('A.b-c_1')] },
        metadata,
      );
      expect(dto.attachments!.map((a) => a.contentId)).toEqual([longest, 'A.b-c_1']);
    });

    it.each([
      ['256 characters', 'a'.repeat(256), 'must be 1 to 255 characters'],
      ['empty', '', 'must be 1 to 255 characters'],
      ['angle brackets', '<logo@example.com>', 'must contain only letters, digits and . - _ @'],
      ['a space', 'my logo', 'must contain only letters, digits and . - _ @'],
      ['a non-ASCII letter', 'logö', 'must contain only letters, digits and . - _ @'],
      ['a line break', 'a\r\nX-Injected: 1', 'must contain only letters, digits and . - _ @'],
    ])('refuses one with %s', async (_, contentId, message) => {
      expect(await fieldsRefused({ attachments: [image(contentId)] })).toEqual([
        { field: 'attachments[0].contentId', message },
      ]);
    });

    it('refuses a contentId repeated in one message, letter case aside, naming each repeat', async () => {
      expect(await fieldsRefused({ attachments: [image('logo'), image('x'), image('LOGO'), image('logo')] })).toEqual([
        { field: 'attachments[2].contentId', message: 'repeats attachments[0].contentId' },
        { field: 'attachments[3].contentId', message: 'repeats attachments[0].contentId' },
      ]);
    });
  });

  // The only check of these, for every way in: REST sends and batches, and SMTP submission
  // (SubmitMessageUseCase validates with this pipe); the intake does not check them again.
  describe('the rules read from the configuration', () => {
    const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

    it('refuses more than MAX_RECIPIENTS across to, cc and bcc, whatever way the request came in, and takes exactly MAX_RECIPIENTS', async () => {
      config = { ...CONFIG, limits: { ...CONFIG.limits, maxRecipients: 50 } };

      expect(await fieldsRefused({ to: many(20, 'to'), cc: many(20, 'cc'), bcc: many(11, 'bcc') })).toEqual([
        { field: 'to', message: 'must have at most 50 distinct recipients across to, cc and bcc' },
      ]);
      const dto = await sut.transform(
        { ...valid, to: many(20, 'to'), cc: many(20, 'cc'), bcc: many(10, 'bcc') },
        metadata,
      );
      expect(dto.bcc).toHaveLength(10);
    });

    describe.each([false, true])('webhook.url with WEBHOOK_ALLOW_PRIVATE_NETWORKS=%s', (allowPrivateNetworks) => {
      beforeEach(() => (config = { ...CONFIG, webhooks: { ...CONFIG.webhooks, allowPrivateNetworks } }));
      const privateRefusal = (address: string) =>
        `must not name a private, loopback or link-local address (${address}); an operator can allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`;
      const refused = async (body: object) =>
        (await sut.transform({ ...valid, ...body }, metadata).catch((e: unknown) => e)) as unknown;
      // An http URL of `length` characters naming 10.0.0.1 outright.
      const privateUrl = (length: number) => `http://10.0.0.1/${'a'.repeat(length - 'http://10.0.0.1/'.length)}`;

      it('refuses credentials in the URL, and a private address named outright unless allowed', async () => {
        expect(await fieldsRefused({ webhook: { url: 'https://user:pw@hooks.example.com/' } })).toEqual([
          { field: 'webhook.url', message: 'must not contain a user name or password' },
        ]);
        const named = await refused({ webhook: { url: 'http://10.0.0.1/' } });
        if (allowPrivateNetworks) expect(named).toBeInstanceOf(SendMessageDto);
        else
          expect((named as InvalidInputError).errors).toEqual([
            { field: 'webhook.url', message: privateRefusal('10.0.0.1') },
          ]);
        expect(await refused({ webhook: { url: 'https://hooks.example.com/' } })).toBeInstanceOf(SendMessageDto);
      });

      it('judges a URL of 2,048 characters; of 2,049, or not a URL, says only that', async () => {
        const longest = await refused({ webhook: { url: privateUrl(2048) } });
        if (allowPrivateNetworks) expect(longest).toBeInstanceOf(SendMessageDto);
        else
          expect((longest as InvalidInputError).errors).toEqual([
            { field: 'webhook.url', message: privateRefusal('10.0.0.1') },
          ]);
        expect(await fieldsRefused({ webhook: { url: privateUrl(2049) } })).toEqual([
          { field: 'webhook.url', message: 'must be 1 to 2048 characters' },
        ]);
        expect(await fieldsRefused({ webhook: { url: 'ftp://user:pw@10.0.0.1/' } })).toEqual([
          { field: 'webhook.url', message: 'must be an absolute http(s) URL' },
        ]);
      });

      it('names the failing fields of every message of a batch, prefixed with its place', async () => {
        const error = await sut
          .transform(
            {
              messages: [
                valid,
                { ...valid, webhook: { url: 'http://10.0.0.1/' } },
                { ...valid, webhook: { url: 'https://user:pw@hooks.example.com/' } },
              ],
            },
            { type: 'body', metatype: SendBatchDto },
          )
          .catch((e: unknown) => e);

        expect(error).toBeInstanceOf(InvalidInputError);
        expect((error as InvalidInputError).errors.map((e) => e.field)).toEqual([
          ...(allowPrivateNetworks ? [] : ['messages[1].webhook.url']),
          'messages[2].webhook.url',
        ]);
      });
    });
  });

  it('takes scheduledAt as given, and names it when it is no moment within 30 days', async () => {
    const dto = await sut.transform({ ...valid, scheduledAt: '2026-03-02T09:00:00+01:00' }, metadata);
    expect(dto.scheduledAt).toBe('2026-03-02T09:00:00+01:00');
    expect(await fieldsRefused({ scheduledAt: '2026-03-02' })).toEqual([
      { field: 'scheduledAt', message: 'must be an ISO 8601 date-time with an offset or Z (2026-03-01T09:00:00Z)' },
    ]);
    expect(
      (await fieldsRefused({ scheduledAt: new Date(Date.now() + 31 * 86_400_000).toISOString() })).map((e) => e.field),
    ).toEqual(['scheduledAt']);
  });
});
