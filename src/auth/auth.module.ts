import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyHasher } from './api-keys/api-key-hasher';
import { ApiKeys } from './api-keys/api-keys';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { CallerController } from './caller/caller.controller';
import { JwtStrategy } from './jwt.strategy';

/** Bearer authentication by JWT or API key; ApiKeys is exported for the other ways in (SMTP submission). */
@Module({
  imports: [PassportModule],
  controllers: [ApiKeysController, CallerController],
  providers: [
    JwtStrategy,
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    ApiKeyHasher,
    ApiKeysRepository,
    ApiKeys,
    ApiKeysService,
  ],
  exports: [ApiKeys],
})
export class AuthModule {}
