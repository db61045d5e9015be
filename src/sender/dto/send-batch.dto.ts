import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, ValidateNested } from 'class-validator';
import { MessageResponse } from '../../messages';
import { SendMessageDto } from './send-message.dto';

export const MAX_BATCH_MESSAGES = 100;

/** `POST /sender/send/batch` body (docs/api.md#sending): each element is what POST /sender/send takes. */
export class SendBatchDto {
  @ApiProperty({
    type: [SendMessageDto],
    minItems: 1,
    maxItems: MAX_BATCH_MESSAGES,
    description: '1–100 send bodies, stored together or not at all',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_MESSAGES)
  @IsObject({ each: true, message: 'must contain only send bodies (objects)' })
  @ValidateNested({ each: true })
  @Type(() => SendMessageDto)
  messages!: SendMessageDto[];
}

export class BatchResponse {
  @ApiProperty({ type: [MessageResponse], description: 'The stored messages, in the order sent' })
  messages!: MessageResponse[];
}
