import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { TextLength } from '../../../platform/validation/validators';
import { MAX_SUBJECT_LENGTH } from '../../jwt.strategy';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MemberResponse } from '../../members/dto/member.dto';
import { MEMBER_ROLES, type MemberRole } from '../../members/member-role';

export class SignInDto {
  @ApiProperty({ maxLength: MAX_EMAIL_LENGTH, example: 'grace@example.com' })
  @IsString()
  @TextLength(1, MAX_EMAIL_LENGTH)
  email!: string;

  // Any length up to the most a password may have: a shorter one is simply wrong, not invalid input.
  @ApiProperty({ maxLength: MAX_PASSWORD_LENGTH })
  @IsString()
  @TextLength(1, MAX_PASSWORD_LENGTH)
  password!: string;
}

export class SessionAccount {
  @ApiProperty({ example: 'ada', description: "The account: a JWT's `sub`" })
  userId!: string;
}

export class SwitchAccountDto {
  @ApiProperty({
    maxLength: MAX_SUBJECT_LENGTH,
    example: 'ada',
    description: "The account to switch to: a JWT's `sub`",
  })
  @IsString()
  @TextLength(1, MAX_SUBJECT_LENGTH)
  userId!: string;
}

export class SessionAccountChoice {
  @ApiProperty({ example: 'ada', description: "An account the same address is an active member of: a JWT's `sub`" })
  userId!: string;

  @ApiProperty({ enum: MEMBER_ROLES, description: 'Its role there' })
  role!: MemberRole;
}

export class SessionResponse {
  @ApiProperty({ type: MemberResponse })
  member!: MemberResponse;

  @ApiProperty({ type: SessionAccount })
  account!: SessionAccount;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: MemberRole;

  @ApiProperty({
    type: [SessionAccountChoice],
    description:
      "Every account where the member's address is an active member, this one included, by userId (at most 20): those POST /session/account may switch to",
  })
  accounts!: SessionAccountChoice[];
}
