import { ApiProperty } from '@nestjs/swagger';

/** The ways a member may sign in here, for the console's sign-in page (docs/teams.md#signing-in-with-oidc). */
export class SessionMethodsResponse {
  @ApiProperty({ example: true, description: 'Email and password (POST /session): always' })
  password!: true;

  @ApiProperty({
    example: false,
    description: 'An OpenID Connect provider (GET /session/oidc): when OIDC_ISSUER is set',
  })
  oidc!: boolean;
}
