import { Global, Module } from '@nestjs/common';
import { AuditLog } from './audit-log';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogRetention } from './audit-log-retention';

/**
 * The audit log (docs/teams.md#audit-log). Global, as the event outbox: API keys, domains,
 * suppressions, webhook endpoints and messages all record their changes through AuditLog.
 */
@Global()
@Module({
  controllers: [AuditLogController],
  providers: [AuditLog, AuditLogRepository, AuditLogRetention],
  exports: [AuditLog],
})
export class AuditModule {}
