import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { createValidationPipe } from '../../platform/validation/validation.pipe';
import { actorOf } from './audit-log';
import { ListAuditLogQuery } from './dto/audit-log.dto';

describe(actorOf.name, () => {
  it('names a JWT caller by its sub, twice', () => {
    expect(actorOf({ id: 'ada', clientAddress: '203.0.113.7' })).toEqual({ type: 'jwt', id: 'ada', label: 'ada' });
  });

  it("names an API key by its id and prefix, or its id again when the key's prefix was never kept", () => {
    const apiKey = { id: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', prefix: 'mr_AbC12', scopes: ['keys' as const] };

    expect(actorOf({ id: 'ada', apiKey, clientAddress: '::1' })).toEqual({
      type: 'api_key',
      id: apiKey.id,
      label: 'mr_AbC12',
    });
    expect(actorOf({ id: 'ada', apiKey: { ...apiKey, prefix: null }, clientAddress: '::1' }).label).toBe(apiKey.id);
  });
});

describe(ListAuditLogQuery.name, () => {
  const sut = createValidationPipe();
  const metadata: ArgumentMetadata = { type: 'query', metatype: ListAuditLogQuery };

  it('fills the list defaults and keeps its filters', async () => {
    expect(await sut.transform({}, metadata)).toEqual({ take: 10, page: 1 });
    expect(await sut.transform({ take: '100', actor: 'ada', action: 'domain.deleted' }, metadata)).toEqual({
      take: 100,
      page: 1,
      actor: 'ada',
      action: 'domain.deleted',
    });
  });

  it.each([
    [{ take: '101' }, 'take'],
    [{ page: '0' }, 'page'],
    [{ action: 'domain.stolen' }, 'action'],
    [{ actor: 'a\0b' }, 'actor'],
    [{ actor: 'x'.repeat(256) }, 'actor'],
  ])('refuses %j naming %s', async (query, field) => {
    const error = await sut.transform(query, metadata).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errors.map((e) => e.field)).toEqual([field]);
  });
});
