import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES } from '../api-keys/api-key-scope';
import type { ApiKeyScope } from '../api-keys/api-key-scope';

export const CREDENTIALS = ['jwt', 'api-key', 'session'] as const;

export class CallerResponse {
  @ApiProperty({ example: 'ada', description: "Your user id: the JWT's `sub`, or the owner of the API key" })
  userId!: string;

  @ApiProperty({ enum: CREDENTIALS, example: 'api-key', description: 'What this request was authorized with' })
  credential!: (typeof CREDENTIALS)[number];

  @ApiProperty({
    type: [String],
    enum: API_KEY_SCOPES,
    example: ['send', 'read'],
    description: "What the credential may do: an API key's scopes, a member's role's; a JWT has all three",
  })
  scopes!: ApiKeyScope[];

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The API key, null for a JWT' })
  apiKeyId!: string | null;
}
