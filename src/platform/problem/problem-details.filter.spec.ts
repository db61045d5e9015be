import { ArgumentsHost, BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ProblemDetailsFilter, toProblem } from './problem-details.filter';
import {
  IdempotencyConflictError,
  IdempotencyMismatchError,
  InvalidInputError,
  InvalidTokenError,
  MalformedBodyError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from './problem.errors';

describe(toProblem.name, () => {
  it.each([
    [new NotFoundError('Message 1'), 404, 'Message 1 does not exist.'],
    [new MalformedBodyError('The body is not valid JSON.'), 400, 'The body is not valid JSON.'],
    [new PayloadTooLargeError('Too large.'), 413, 'Too large.'],
    [new UnsupportedMediaTypeError('Send JSON.'), 415, 'Send JSON.'],
    [new IdempotencyConflictError('In flight.'), 409, 'In flight.'],
    [new IdempotencyMismatchError('Other body.'), 422, 'Other body.'],
  ])('answers %p with its own status and message, and nothing more', (error, status, detail) => {
    expect(toProblem(error)).toStrictEqual({ status, type: 'about:blank', detail });
  });

  it('lists the field errors of invalid input and counts them in the detail', () => {
    const errors = [
      { field: 'to[0]', message: 'must be an email address' },
      { field: 'subject', message: 'is required' },
    ];
    expect(toProblem(new InvalidInputError(errors))).toStrictEqual({
      status: 400,
      type: 'about:blank',
      detail: 'The request has 2 invalid fields.',
      errors,
    });
    expect(toProblem(new InvalidInputError(errors.slice(1))).detail).toBe('The request has 1 invalid field.');
  });

  it('asks for a bearer token with a refused one', () => {
    expect(toProblem(new InvalidTokenError('The token has expired.'))).toStrictEqual({
      status: 401,
      type: 'about:blank',
      detail: 'The token has expired.',
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  });

  it('says when to retry after the rate limit and an outage', () => {
    expect(toProblem(new RateLimitedError(600, 42))).toStrictEqual({
      status: 429,
      type: 'about:blank',
      detail: 'More than 600 requests in a minute; retry after 42 s.',
      headers: { 'Retry-After': '42' },
    });
    expect(toProblem(new ServiceUnavailableError('Not ready: database.'))).toStrictEqual({
      status: 503,
      type: 'about:blank',
      detail: 'Not ready: database.',
      headers: { 'Retry-After': '5' },
    });
  });

  it("keeps the status and message of Nest's own exceptions", () => {
    expect(toProblem(new NotFoundException('Cannot GET /nowhere'))).toStrictEqual({
      status: 404,
      type: 'about:blank',
      detail: 'Cannot GET /nowhere',
    });
    expect(toProblem(new PayloadTooLargeException())).toStrictEqual({
      status: 413,
      type: 'about:blank',
      detail: 'Payload Too Large',
    });
    expect(toProblem(new BadRequestException(['a is wrong', 'b is wrong'])).detail).toBe('a is wrong; b is wrong');
  });

  it('answers a database out of reach with 503 and Retry-After, and anything else with 500', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(toProblem(refused)).toStrictEqual({
      status: 503,
      type: 'about:blank',
      detail: 'The database is not answering; try again shortly.',
      headers: { 'Retry-After': '5' },
    });
    expect(toProblem(new TypeError('x is undefined'))).toStrictEqual({
      status: 500,
      type: 'about:blank',
      detail: 'An unexpected error occurred; it has been logged with this request id.',
    });
    expect(toProblem('a string').status).toBe(500);
  });
});

describe(ProblemDetailsFilter.name, () => {
  const sut = new ProblemDetailsFilter();

  function answer(exception: unknown, path = '/sender/send') {
    const headers: Record<string, string> = {};
    const sent: { status?: number; type?: string; body?: string } = {};
    const response = {
      headersSent: false,
      setHeader: (name: string, value: string) => void (headers[name] = value),
      status(status: number) {
        sent.status = status;
        return this;
      },
      type(type: string) {
        sent.type = type;
        return this;
      },
      send(body: string) {
        sent.body = body;
        return this;
      },
    };
    const request = { id: 'req-1', path, complete: true };
    const host = {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ArgumentsHost;
    sut.catch(exception, host);
    return { headers, ...sent };
  }

  it('writes the problem body with its fields in order, and the headers the error carries', () => {
    const errors = [{ field: 'to[0]', message: 'must be an email address' }];
    expect(answer(new InvalidInputError(errors))).toStrictEqual({
      headers: {},
      status: 400,
      type: 'application/problem+json',
      body:
        '{"type":"about:blank","title":"Bad Request","status":400,"detail":"The request has 1 invalid field.",' +
        '"errors":[{"field":"to[0]","message":"must be an email address"}],"requestId":"req-1"}',
    });
    expect(answer(new RateLimitedError(600, 42)).headers).toStrictEqual({ 'Retry-After': '42' });
    expect(answer(new InvalidTokenError('The token has expired.')).headers).toStrictEqual({
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  });

  it("answers Express's 400 for an undecodable path as the 404 of a path that names nothing", () => {
    const { status, body } = answer(new BadRequestException('Failed to decode param'), '/user/messages/%ZZ');
    expect(status).toBe(404);
    expect(JSON.parse(body!)).toMatchObject({ title: 'Not Found', detail: 'Nothing exists at this path.' });
  });
});
