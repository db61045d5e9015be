import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { createValidationPipe } from '../../platform/validation/validation.pipe';
import { MAX_PAGE } from '../../platform/paging';
import { ListMessagesQuery } from './list-messages.query';

const metadata: ArgumentMetadata = { type: 'query', metatype: ListMessagesQuery };

describe(ListMessagesQuery.name, () => {
  const sut = createValidationPipe();

  it('fills the seed defaults for an empty query', async () => {
    expect(await sut.transform({}, metadata)).toEqual({ take: 10, page: 1, includeStatusHistory: false });
  });

  it('normalizes what it accepts', async () => {
    const query = await sut.transform(
      {
        take: '100',
        page: String(MAX_PAGE),
        includeStatusHistory: '1',
        startDate: '2026-03-01',
        endDate: '2026-03-01T12:00:00+01:00',
        fromEmail: 'A@X.io',
        statuses: 'sent, failed,sent,bounced,complained',
      },
      metadata,
    );
    expect(query).toMatchObject({
      take: 100,
      page: MAX_PAGE,
      includeStatusHistory: true,
      fromEmail: 'a@x.io',
      statuses: ['sent', 'failed', 'bounced', 'complained'],
      startDate: new Date('2026-03-01T00:00:00.000Z'),
      endDate: new Date('2026-03-01T11:00:00.000Z'),
    });
  });

  it.each([
    [{ take: '101' }, 'take'],
    [{ page: String(MAX_PAGE + 1) }, 'page'],
    [{ page: '1.0' }, 'page'],
    [{ includeStatusHistory: 'constructor' }, 'includeStatusHistory'],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate'],
    [{ toEmail: 'ada' }, 'toEmail'],
    [{ statuses: 'sent,delivered' }, 'statuses'],
    [{ bulkSending: 'x'.repeat(256) }, 'bulkSending'],
    [{ offset: '5' }, 'offset'],
  ])('refuses %j naming %s', async (query, field) => {
    const error = await sut.transform(query, metadata).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errors.map((e) => e.field)).toEqual([field]);
  });
});
