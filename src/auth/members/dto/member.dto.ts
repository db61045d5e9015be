import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsEmailAddress, IsNotBlank, TextLength } from '../../../platform/validation/validators';
import { MEMBER_ROLES, MEMBER_STATUSES, type MemberRole, type MemberStatus } from '../member-role';

/** RFC 5321's longest path less its brackets: the longest address a mail can be sent to. */
export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_NAME_LENGTH = 100;

export class InviteMemberDto {
  @ApiProperty({ maxLength: MAX_EMAIL_LENGTH, example: 'grace@example.com', description: 'Where the invitation goes' })
  @IsString()
  @TextLength(3, MAX_EMAIL_LENGTH)
  @IsEmailAddress()
  email!: string;

  @ApiProperty({ enum: MEMBER_ROLES, example: 'developer' })
  @IsIn(MEMBER_ROLES, { message: `must be one of: ${MEMBER_ROLES.join(', ')}` })
  role!: MemberRole;
}

export class ChangeMemberDto {
  @ApiProperty({ enum: MEMBER_ROLES, example: 'viewer' })
  @IsIn(MEMBER_ROLES, { message: `must be one of: ${MEMBER_ROLES.join(', ')}` })
  role!: MemberRole;
}

export class AcceptInvitationDto {
  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH, description: 'The new password' })
  @IsString()
  @TextLength(MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH)
  password!: string;

  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH, example: 'Grace Hopper' })
  @IsOptional()
  @IsString()
  @TextLength(1, MAX_NAME_LENGTH)
  @IsNotBlank()
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
  @Matches(/^[^\x00-\x1f\x7f]*$/, { message: 'must not contain control characters' })
  name?: string;
}

export class MemberResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'grace@example.com' })
  email!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Grace Hopper' })
  name!: string | null;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: MemberRole;

  @ApiProperty({ enum: MEMBER_STATUSES })
  status!: MemberStatus;

  @ApiProperty({ format: 'date-time' })
  invitedAt!: string;

  @ApiProperty({ description: "Who invited: the inviting member's address, the JWT's `sub`, or `cli`" })
  invitedBy!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  joinedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSignInAt!: string | null;
}

export class MemberListResponse {
  @ApiProperty({ type: [MemberResponse] })
  members!: MemberResponse[];
}
