import { ApiProperty } from '@nestjs/swagger';

/** The JSON answer to an unsubscribe: it names no address, which the caller holding the link knows. */
export class UnsubscribeResponse {
  @ApiProperty({ enum: [true], example: true, description: 'The recipient is on the sender\'s suppression list (it may have been already)' })
  unsubscribed!: true;
}
