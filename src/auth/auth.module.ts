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
import { ExpiredTokensSweep } from './expired-tokens-sweep';
import { JwtStrategy } from './jwt.strategy';
import { FirstOwnerInvitation } from './members/first-owner-invitation';
import { Invitations } from './members/invitations';
import { InvitationsController } from './members/invitations.controller';
import { MembersController } from './members/members.controller';
import { MembersRepository } from './members/members.repository';
import { MembersService } from './members/members.service';
import { PasswordHasher } from './members/password-hasher';
import { OidcController } from './oidc/oidc.controller';
import { OidcProviderClient } from './oidc/oidc-provider-client';
import { OidcSignIn } from './oidc/oidc-sign-in';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { SignInThrottle } from './sessions/sign-in-throttle';
import { PasswordResetController } from './password-reset/password-reset.controller';
import { PasswordResetThrottle } from './password-reset/password-reset-throttle';
import { PasswordResets } from './password-reset/password-resets';
import { PasswordResetsRepository } from './password-reset/password-resets.repository';
import { RateLimitCountersRepository } from './rate-limit/rate-limit-counters.repository';

/** Bearer authentication by JWT or API key, and members' sessions (SystemMail, for invitations, comes from sender); ApiKeys is exported for the other ways in (SMTP submission). */
@Module({
  imports: [PassportModule],
  controllers: [
    ApiKeysController,
    CallerController,
    MembersController,
    InvitationsController,
    SessionsController,
    PasswordResetController,
    OidcController,
  ],
  providers: [
    JwtStrategy,
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    ApiKeyHasher,
    ApiKeysRepository,
    ApiKeys,
    ApiKeysService,
    PasswordHasher,
    MembersRepository,
    Invitations,
    MembersService,
    SessionsRepository,
    SessionsService,
    RateLimitCountersRepository,
    SignInThrottle,
    PasswordResetsRepository,
    PasswordResetThrottle,
    PasswordResets,
    ExpiredTokensSweep,
    FirstOwnerInvitation,
    OidcProviderClient,
    OidcSignIn,
  ],
  exports: [ApiKeys, FirstOwnerInvitation],
})
export class AuthModule {}
