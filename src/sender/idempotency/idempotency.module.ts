import { Module } from '@nestjs/common';
import { ExpiredKeysJanitor } from './expired-keys.janitor';
import { IdempotencyKeys } from './idempotency-keys';

@Module({
  providers: [IdempotencyKeys, ExpiredKeysJanitor],
  exports: [IdempotencyKeys],
})
export class IdempotencyModule {}
