import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageEnvelope, PageQuery } from '../../../platform/paging';
import { IsEmailAddress } from '../../../platform/validation/validators';
import { API_SUPPRESSION_REASONS, SUPPRESSION_REASONS, SUPPRESSION_SCOPES } from '../suppression-reason';
import type { SuppressionReason, SuppressionScope } from '../suppression-reason';

// A bare address (no display name): an entry names an address, not a mailbox.
const ADDRESS = { format: 'email', maxLength: 254, example: 'ada@example.com' } as const;

export class ListSuppressionsQuery extends PageQuery {
  @ApiPropertyOptional({ ...ADDRESS, description: 'Only the entry for this address, case-insensitive' })
  @IsOptional()
  @IsEmailAddress()
  email?: string;
}

export class CreateSuppressionDto {
  @ApiProperty({ ...ADDRESS, description: 'The address to stop sending to, case-insensitive' })
  @IsEmailAddress()
  email!: string;

  @ApiPropertyOptional({
    enum: API_SUPPRESSION_REASONS,
    default: 'manual',
    description: 'Only `manual`: the other reasons are recorded by bounces, complaints and unsubscribes',
  })
  @IsOptional()
  @IsIn(API_SUPPRESSION_REASONS, { message: `must be one of: ${API_SUPPRESSION_REASONS.join(', ')}` })
  reason?: 'manual';

  @ApiPropertyOptional({
    enum: SUPPRESSION_SCOPES,
    default: 'all',
    example: 'all',
    description:
      'Which mail to stop: `all`, or only `bulk` mail (messages with a `bulkSendingId`). An address already listed keeps its entry unless this one stops more',
  })
  @IsOptional()
  @IsIn(SUPPRESSION_SCOPES, { message: `must be one of: ${SUPPRESSION_SCOPES.join(', ')}` })
  scope?: SuppressionScope;
}

export class SuppressionAddressParams {
  // Not held to the address rule: something that is no address is on no list, so it is a 404
  // like any address not on the list, as every id route answers an unknown id.
  @ApiProperty({ ...ADDRESS, description: 'The suppressed address, case-insensitive' })
  @IsString()
  email!: string;
}

export class SuppressionResponse {
  @ApiProperty({ format: 'email', example: 'ada@example.com', description: 'Lower-cased' })
  email!: string;

  @ApiProperty({ enum: SUPPRESSION_REASONS, example: 'manual' })
  reason!: SuppressionReason;

  @ApiProperty({
    enum: SUPPRESSION_SCOPES,
    example: 'all',
    description:
      'The mail it stops: `all`, or `bulk` (messages with a `bulkSendingId`) for an unsubscribe or a manual entry that asked for it',
  })
  scope!: SuppressionScope;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The message whose bounce, complaint or unsubscribe caused it',
  })
  messageId!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class SuppressionPageResponse extends PageEnvelope {
  @ApiProperty({ type: [SuppressionResponse], description: 'Newest first' })
  suppressions!: SuppressionResponse[];
}
