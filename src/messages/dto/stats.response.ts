import { ApiProperty } from '@nestjs/swagger';

const count = (status: string) => ApiProperty({ example: 0, description: `Messages ${status} now` });

/** Every status of docs/delivery-and-deliverability.md#statuses, zeros included. */
export class StatusCountsResponse {
  @count('scheduled') scheduled!: number;
  @count('queued') queued!: number;
  @count('sending') sending!: number;
  @count('deferred') deferred!: number;
  @count('sent') sent!: number;
  @count('failed') failed!: number;
  @count('canceled') canceled!: number;
  @count('suppressed') suppressed!: number;
  @count('bounced') bounced!: number;
  @count('complained') complained!: number;
}

const recipients = (fate: string) => ApiProperty({ example: 0, description: `Recipients ${fate} now` });

/** Every recipient status of docs/delivery-and-deliverability.md#statuses, zeros included. */
export class RecipientCountsResponse {
  @recipients('pending (not tried yet)') pending!: number;
  @recipients('accepted by the receiving server') sent!: number;
  @recipients('refused for now, to be tried again') deferred!: number;
  @recipients('refused for good, or given up on') failed!: number;
  @recipients('bounced after acceptance') bounced!: number;
  @recipients('who complained') complained!: number;
  @recipients('on the suppression list') suppressed!: number;
  @recipients('canceled before delivery') canceled!: number;
}

export class StatsDayResponse {
  @ApiProperty({ example: '2026-03-01', description: 'A UTC day' })
  date!: string;

  @ApiProperty({ example: 1200, description: 'Messages accepted that day' })
  accepted!: number;

  @ApiProperty({
    type: StatusCountsResponse,
    description: "Those messages by their status now; each equals the list's `total` for that day and status",
  })
  byStatus!: StatusCountsResponse;

  @ApiProperty({ type: RecipientCountsResponse, description: "Those messages' recipients by their own fate now" })
  recipients!: RecipientCountsResponse;
}

export class StatsTotalsResponse {
  @ApiProperty({ example: 36000 })
  accepted!: number;

  @ApiProperty({ type: StatusCountsResponse })
  byStatus!: StatusCountsResponse;

  @ApiProperty({ type: RecipientCountsResponse })
  recipients!: RecipientCountsResponse;
}

export class StatsRatesResponse {
  @ApiProperty({ example: 35500, description: 'sent + bounced + complained: messages the relay accepted' })
  delivered!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.012,
    description:
      'Recipients that bounced or were refused for the address itself (docs/delivery-and-deliverability.md: 550 5.1.1 and the like) / recipients handed over (accepted or refused by the receiving server); null when none was handed over',
  })
  bounceRate!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.0004,
    description: 'Recipients that complained / recipients the receiving server accepted; null when none was accepted',
  })
  complaintRate!: number | null;
}

/** `GET /user/stats` (docs/api.md#reading-back). */
export class StatsResponse {
  @ApiProperty({ example: '2026-02-01', description: 'The first UTC day counted' })
  startDate!: string;

  @ApiProperty({ example: '2026-03-02', description: 'The last UTC day counted' })
  endDate!: string;

  @ApiProperty({ type: [StatsDayResponse], description: 'Every day of the range, oldest first, zeros included' })
  days!: StatsDayResponse[];

  @ApiProperty({ type: StatsTotalsResponse })
  totals!: StatsTotalsResponse;

  @ApiProperty({ type: StatsRatesResponse })
  rates!: StatsRatesResponse;
}
