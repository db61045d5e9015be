import { Module } from '@nestjs/common';
import { ExpiredKeysJanitor } from './expired-keys.janitor';
import { IdempotencyKeys } from './idempotency-keys';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

@Module({
  providers: [IdempotencyKeys, IdempotencyKeysRepository, ExpiredKeysJanitor],
  exports: [IdempotencyKeys],
})
export class IdempotencyModule {}
