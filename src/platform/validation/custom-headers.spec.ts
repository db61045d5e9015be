import { customHeaderProblem, isMimeType, isReservedHeaderName, MAX_HEADER_NAME_LENGTH } from './custom-headers';

describe(isReservedHeaderName.name, () => {
  it.each([
    'From',
    'to',
    'CC',
    'Bcc',
    'reply-to',
    'Subject',
    'DATE',
    'Message-Id',
    'MIME-Version',
    'Content-Type',
    'content-anything',
    'DKIM-Signature',
    'Return-Path',
    'Received',
    'List-Unsubscribe',
    'list-unsubscribe-post',
  ])('reserves %s', (name) => {
    expect(isReservedHeaderName(name)).toBe(true);
  });

  it.each(['X-Campaign', 'Sender-Ref', 'X-Content-Type', 'List-Id', 'Precedence', 'Fromage'])(
    'leaves %s to the caller',
    (name) => {
      expect(isReservedHeaderName(name)).toBe(false);
    },
  );
});

describe(customHeaderProblem.name, () => {
  it('takes printable ASCII names but the colon, up to their limit, and values of 998 characters', () => {
    expect(customHeaderProblem('X-!#$%&\'*+-.^_`|~"(),/;<=>?@[\\]{}', 'v', 998)).toBeUndefined();
    expect(customHeaderProblem(`X-${'n'.repeat(MAX_HEADER_NAME_LENGTH - 2)}`, '😀'.repeat(998), 998)).toBeUndefined();
    expect(customHeaderProblem('X-Tab', 'a\tb', 998)).toBeUndefined();
  });

  it.each([
    ['a name one past its limit', `X-${'n'.repeat(MAX_HEADER_NAME_LENGTH - 1)}`, 'v'],
    ['an empty name', '', 'v'],
    ['a colon', 'X-A:B', 'v'],
    ['a space', 'X A', 'v'],
    ['a name beyond ASCII', 'X-Ünï', 'v'],
    ['a reserved name', 'content-type', 'text/plain'],
    ['a value one past its limit', 'X-A', '😀'.repeat(999)],
    ['CR LF', 'X-A', 'a\r\nBcc: x@example.com'],
    ['a lone LF', 'X-A', 'a\nb'],
    ['NUL', 'X-A', 'a\u0000b'],
    ['a blank value', 'X-A', ' \t '],
    ['a number', 'X-A', 1],
  ])('refuses %s', (_case, name, value) => {
    expect(customHeaderProblem(name, value, 998)).toEqual(expect.any(String));
  });
});

describe(isMimeType.name, () => {
  it.each([
    'application/pdf',
    'text/plain',
    'image/svg+xml',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'Text/HTML',
    `${'a'.repeat(127)}/${'b'.repeat(127)}`,
  ])('takes %s', (value) => expect(isMimeType(value)).toBe(true));

  it.each([
    'text',
    'text/',
    '/plain',
    'text/plain; charset=utf-8',
    'text/plain\r\nX: 1',
    'text /plain',
    '*/*',
    `${'a'.repeat(128)}/b`,
    `a/${'b'.repeat(128)}`,
    '',
    'multipart/mixed',
    'message/rfc822',
    'Multipart/Alternative',
  ])('refuses %j', (value) => expect(isMimeType(value)).toBe(false));
});
