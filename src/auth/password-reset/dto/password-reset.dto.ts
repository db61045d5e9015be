import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { TextLength } from '../../../platform/validation/validators';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../members/dto/member.dto';

export class RequestPasswordResetDto {
  // Any text up to an address's length: one that is no member's address is answered alike.
  @ApiProperty({ maxLength: MAX_EMAIL_LENGTH, example: 'grace@example.com' })
  @IsString()
  @TextLength(1, MAX_EMAIL_LENGTH)
  email!: string;
}

export class ResetPasswordDto {
  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH, description: 'The new password' })
  @IsString()
  @TextLength(MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH)
  password!: string;
}
