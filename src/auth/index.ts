// The Auth context's public face: the caller (guards, decorators, scopes), API keys, members and sessions, rate limits and the audit log.
// What other contexts may import (.dependency-cruiser.cjs); inside auth/, import files directly.
export { ApiKeys } from './api-keys/api-keys';
export { ApiKeyRevocationsEntity } from './api-keys/entities/api-key-revocations.entity';
export { ApiKeyEntity } from './api-keys/entities/api-key.entity';
export { AuditLog } from './audit/audit-log';
export { AuditModule } from './audit/audit.module';
export { AuditLogEntryEntity } from './audit/entities/audit-log-entry.entity';
export type { AuthUser } from './auth-user';
export { AuthModule } from './auth.module';
export { CurrentUser } from './current-user.decorator';
export { FailureBudget } from './failure-budget';
export { RateLimitCounterEntity } from './rate-limit/entities/rate-limit-counter.entity';
export { MemberEntity } from './members/entities/member.entity';
export { FirstOwnerInvitation } from './members/first-owner-invitation';
export type { FirstOwnerLink } from './members/first-owner-invitation';
export { SYSTEM_ACCOUNT_ID, SystemMail } from './members/system-mail';
export type { SystemMessage } from './members/system-mail';
export { PasswordResetEntity } from './password-reset/entities/password-reset.entity';
export { MessageBudget } from './rate-limit/message-budget';
export { RateLimitModule } from './rate-limit/rate-limit.module';
export { API_KEY_SECURITY, RequiresScope } from './requires-scope.decorator';
export { MemberSessionEntity } from './sessions/entities/member-session.entity';
export { signToken } from './token-signer';
