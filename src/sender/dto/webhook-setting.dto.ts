import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsOptional, IsString, IsUrl } from 'class-validator';
import { TextLength } from '../../common/validation/validators';
import { MESSAGE_STATUSES, MessageStatus } from '../../messages/message-status';

export class WebhookSettingDto {
  @ApiProperty({
    format: 'uri',
    example: 'https://hooks.your-app.example/mailroom',
    maxLength: 2048,
    description: 'Absolute http(s) URL of your receiver',
  })
  @IsString()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'must be an absolute http(s) URL' },
  )
  @TextLength(1, 2048)
  url!: string;

  @ApiPropertyOptional({
    enum: MESSAGE_STATUSES,
    isArray: true,
    description: 'Statuses to be told about; empty or absent means every status',
  })
  @IsOptional()
  @IsArray()
  @IsIn(MESSAGE_STATUSES, { each: true, message: `must list only these statuses: ${MESSAGE_STATUSES.join(', ')}` })
  status?: MessageStatus[];
}
