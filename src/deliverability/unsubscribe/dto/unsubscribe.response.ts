import { ApiProperty } from '@nestjs/swagger';

/** The JSON answer to an unsubscribe: it names no address, which the caller holding the link knows. */
export class UnsubscribeResponse {
  @ApiProperty({
    enum: [true],
    example: true,
    description: "The recipient is on the sender's suppression list (it may have been already)",
  })
  unsubscribed!: true;
}

/** The JSON answer to an undo. */
export class ResubscribeResponse {
  @ApiProperty({
    example: true,
    description:
      'Whether an `unsubscribe` entry of the recipient was taken off the list (false: there was none to undo)',
  })
  resubscribed!: boolean;
}
