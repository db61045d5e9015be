import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsNotBlank, TextLength } from '../../../platform/validation/validators';
import { API_KEY_SCOPES } from '../api-key-scope';
import type { ApiKeyScope } from '../api-key-scope';

export const MAX_API_KEY_NAME_LENGTH = 100;

export class CreateApiKeyDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_API_KEY_NAME_LENGTH,
    example: 'CRM newsletters',
    description: 'Yours to tell keys apart',
  })
  @IsString()
  @TextLength(1, MAX_API_KEY_NAME_LENGTH)
  @IsNotBlank()
  // PostgreSQL text cannot hold NUL, and no label needs a control character.
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
  @Matches(/^[^\x00-\x1f\x7f]*$/, { message: 'must not contain control characters' })
  name!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: API_KEY_SCOPES,
    default: API_KEY_SCOPES,
    uniqueItems: true,
    minItems: 1,
    description:
      '`send`: send mail and change what is delivered; `read`: read messages, suppressions, domains and webhook deliveries; `keys`: manage API keys and read the webhook secret. Default: all three.',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(API_KEY_SCOPES, { each: true, message: `each must be one of: ${API_KEY_SCOPES.join(', ')}` })
  scopes?: ApiKeyScope[];
}

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'CRM newsletters' })
  name!: string;

  @ApiProperty({ type: [String], enum: API_KEY_SCOPES, example: ['send', 'read'] })
  scopes!: ApiKeyScope[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'mr_3q2-7',
    description:
      "The key's first 8 characters (`mr_` and 5 more), to tell keys apart; null for keys made before prefixes were kept (only their hash was)",
  })
  prefix!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Recorded at most once a minute; null until first used',
  })
  lastUsedAt!: string | null;
}

/** The answer to POST: the key's fields but the last use, and the key itself, this once. */
export class CreatedApiKeyResponse extends OmitType(ApiKeyResponse, ['lastUsedAt'] as const) {
  @ApiProperty({
    example: 'mr_3q2-7wEXAMPLEk3yN0tR3alXq9ZxA5mVbC1dEf0gH2i',
    description: 'Shown this once: only a hash is stored. Send it as `Authorization: Bearer mr_…`.',
  })
  key!: string;
}

export class ApiKeyListResponse {
  @ApiProperty({ type: [ApiKeyResponse], description: 'Newest first; never the keys themselves' })
  apiKeys!: ApiKeyResponse[];
}
