import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsOptional } from 'class-validator';
import { IsWebhookUrl } from '../../webhooks';
import { MESSAGE_STATUSES, MessageStatus } from '../../messages';

export class WebhookSettingDto {
  @ApiProperty({
    format: 'uri',
    example: 'https://hooks.your-app.example/mailroom',
    maxLength: 2048,
    description: 'Absolute http(s) URL of your receiver',
  })
  @IsWebhookUrl()
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
