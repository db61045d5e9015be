import 'reflect-metadata';
import { ValidationError } from '@nestjs/common';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Max,
  Min,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { InvalidInputError } from '../problem/problem.errors';
import { createValidationPipe, toFieldErrors } from './validation.pipe';

class Attachment {
  @IsString()
  @Length(1, 10)
  fileName!: string;

  @IsString()
  @Length(4, 8)
  content!: string;
}

class Webhook {
  @IsUrl({ require_protocol: true })
  url!: string;
}

class Body {
  @IsString()
  @Length(1, 5)
  subject!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Attachment)
  attachments?: Attachment[];

  @IsOptional()
  @ValidateNested()
  @Type(() => Webhook)
  webhook?: Webhook;

  @IsOptional()
  @IsEmail()
  replyTo?: string;
}

const valid = { subject: 'Hi', count: 3 };

/** class-validator's errors for a body, with the options of the global pipe. */
function errorsFor(plain: Record<string, unknown>): ValidationError[] {
  return validateSync(plainToInstance(Body, plain), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: true },
  });
}

describe(toFieldErrors.name, () => {
  it('reports nothing for a valid body', () => {
    expect(toFieldErrors(errorsFor(valid))).toEqual([]);
  });

  it('names array items and nested fields by path', () => {
    const body = {
      ...valid,
      attachments: [
        { fileName: 'a.txt', content: 'abcd' },
        { fileName: 'b.txt', content: 'ab' },
      ],
      webhook: { url: 'not a url' },
    };

    const sut = toFieldErrors(errorsFor(body));

    expect(sut).toEqual([
      { field: 'attachments[1].content', message: 'must be longer than or equal to 4 characters' },
      { field: 'webhook.url', message: 'must be a URL address' },
    ]);
  });

  it('reports a missing field as required, once', () => {
    const sut = toFieldErrors(errorsFor({ count: 3 }));

    expect(sut).toEqual([{ field: 'subject', message: 'is required' }]);
  });

  it('reports a null field as required', () => {
    const sut = toFieldErrors(errorsFor({ ...valid, subject: null }));

    expect(sut).toEqual([{ field: 'subject', message: 'is required' }]);
  });

  it('reports a missing nested field as required', () => {
    const sut = toFieldErrors(errorsFor({ ...valid, attachments: [{ content: 'abcd' }] }));

    expect(sut).toEqual([{ field: 'attachments[0].fileName', message: 'is required' }]);
  });

  it('reports only the type rule when the type is wrong', () => {
    const sut = toFieldErrors(errorsFor({ subject: 12345678, count: 'many' }));

    expect(sut).toEqual([
      { field: 'subject', message: 'must be a string' },
      { field: 'count', message: 'must be an integer number' },
    ]);
  });

  it('reports every failing rule when the type is right', () => {
    const sut = toFieldErrors(errorsFor({ subject: 'Hi', count: 2.5 }));

    expect(sut).toEqual([{ field: 'count', message: 'must be an integer number' }]);
    expect(toFieldErrors(errorsFor({ subject: 'Hi', count: 11 }))).toEqual([
      { field: 'count', message: 'must not be greater than 10' },
    ]);
  });

  it('strips the leading property name from messages and leaves other messages whole', () => {
    const sut = toFieldErrors(errorsFor({ ...valid, subject: 'far too long', replyTo: 'nobody' }));

    expect(sut).toEqual([
      { field: 'subject', message: 'must be shorter than or equal to 5 characters' },
      { field: 'replyTo', message: 'must be an email' },
    ]);
  });

  it('names the field an unknown one likely meant, among the fields of its own object', () => {
    expect(
      toFieldErrors(
        errorsFor({
          ...valid,
          Subject: 'Hi',
          webhook: { URL: 'https://example.com/', from: 'x' },
          reply_to: 'a@example.com',
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        { field: 'Subject', message: 'is not a field of this request; did you mean `subject`?' },
        { field: 'reply_to', message: 'is not a field of this request; did you mean `replyTo`?' },
        { field: 'webhook.URL', message: 'is not a field of this request; did you mean `url`?' },
        // `from` means `sender` elsewhere; Webhook has none.
        { field: 'webhook.from', message: 'is not a field of this request' },
      ]),
    );
  });

  it('maps unknown properties, at any depth, to "is not a field of this request"', () => {
    const sut = toFieldErrors(
      errorsFor({ ...valid, bcc: ['eve@example.com'], webhook: { url: 'https://example.com', secret: 'x' } }),
    );

    expect(sut).toEqual(
      expect.arrayContaining([
        { field: 'bcc', message: 'is not a field of this request' },
        { field: 'webhook.secret', message: 'is not a field of this request' },
      ]),
    );
    expect(sut).toHaveLength(2);
  });

  it('lists every failing field, not just the first', () => {
    const sut = toFieldErrors(errorsFor({ attachments: [{ fileName: '', content: 'abcd' }], extra: 1 }));

    expect(sut.map((error) => error.field).sort()).toEqual(['attachments[0].fileName', 'count', 'extra', 'subject']);
  });

  it('flattens hand-built errors with a prefix', () => {
    const errors: ValidationError[] = [
      {
        property: 'to',
        value: ['ada@example.com', 'nope'],
        constraints: { isEmailAddress: 'to must contain only email addresses' },
        children: [],
      },
      {
        property: 'attachments',
        value: [{}],
        children: [
          {
            property: '0',
            value: {},
            children: [
              {
                property: 'content',
                value: '***',
                constraints: { isStandardBase64: 'must be standard base64' },
                children: [],
              },
            ],
          },
        ],
      },
    ];

    const sut = toFieldErrors(errors, 'body');

    expect(sut).toEqual([
      { field: 'body.to', message: 'must contain only email addresses' },
      { field: 'body.attachments[0].content', message: 'must be standard base64' },
    ]);
  });
});

describe(createValidationPipe.name, () => {
  const sut = createValidationPipe();

  it('transforms a valid body into the DTO', async () => {
    const result = await sut.transform({ ...valid }, { type: 'body', metatype: Body });

    expect(result).toBeInstanceOf(Body);
    expect(result).toEqual(Object.assign(new Body(), valid));
  });

  it('throws InvalidInputError listing every failing field', async () => {
    const error = await sut
      .transform({ count: 0, extra: true }, { type: 'body', metatype: Body })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).message).toBe('The request has 3 invalid fields.');
    expect((error as InvalidInputError).errors).toHaveLength(3);
    expect((error as InvalidInputError).errors).toEqual(
      expect.arrayContaining([
        { field: 'subject', message: 'is required' },
        { field: 'count', message: 'must not be less than 1' },
        { field: 'extra', message: 'is not a field of this request' },
      ]),
    );
  });
});
