import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PageEnvelope, PageQuery } from '../../../platform/paging';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from '../audit-actions';
import type { AuditAction, AuditActorType } from '../audit-actions';

/** `GET /user/audit-log` query (docs/api.md#routes): paged as the message list. */
export class ListAuditLogQuery extends PageQuery {
  @ApiPropertyOptional({ description: "Only this actor's changes: an entry's `actor.id`", maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  @Matches(/^[^\0]*$/, { message: 'must not contain NUL characters' })
  actor?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS, description: 'Only changes of this kind' })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `must be one of: ${AUDIT_ACTIONS.join(', ')}` })
  action?: AuditAction;
}

export class AuditActorResponse {
  @ApiProperty({ enum: AUDIT_ACTOR_TYPES, example: 'api_key' })
  type!: AuditActorType;

  @ApiProperty({ example: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', description: "The API key's id, or the JWT's `sub`" })
  id!: string;

  @ApiProperty({ example: 'mr_AbC12', description: "The API key's prefix, or the JWT's `sub`" })
  label!: string;
}

export class AuditTargetResponse {
  @ApiProperty({ example: 'api_key', description: 'What was changed: the first part of the action' })
  type!: string;

  @ApiProperty({ example: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', description: 'Its id (a suppression: its address)' })
  id!: string;
}

export class AuditLogEntryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: AuditActorResponse })
  actor!: AuditActorResponse;

  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'api_key.created' })
  action!: AuditAction;

  @ApiProperty({ type: AuditTargetResponse })
  target!: AuditTargetResponse;

  @ApiProperty({ example: '203.0.113.7', description: "The client's address (behind TRUST_PROXY: the one forwarded)" })
  clientAddress!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { name: 'CI', scopes: ['send'] },
    description: 'A few facts of the change',
  })
  detail!: Record<string, unknown>;
}

export class AuditLogPageResponse extends PageEnvelope {
  @ApiProperty({ type: [AuditLogEntryResponse] })
  entries!: AuditLogEntryResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'The actor filter applied' })
  actor!: string | null;

  @ApiProperty({ type: String, nullable: true, enum: AUDIT_ACTIONS, description: 'The action filter applied' })
  action!: AuditAction | null;
}
