import { ApiProperty } from '@nestjs/swagger';

const count = (status: string) => ApiProperty({ example: 0, description: `Messages ${status} now` });

/** Every status of SPEC §5, zeros included. */
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
}

export class StatsTotalsResponse {
  @ApiProperty({ example: 36000 })
  accepted!: number;

  @ApiProperty({ type: StatusCountsResponse })
  byStatus!: StatusCountsResponse;
}

export class StatsRatesResponse {
  @ApiProperty({ example: 35500, description: 'sent + bounced + complained: messages the relay accepted' })
  delivered!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.012,
    description: 'bounced / delivered; null when delivered is 0',
  })
  bounceRate!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.0004,
    description: 'complained / delivered; null when delivered is 0',
  })
  complaintRate!: number | null;
}

/** `GET /user/stats` (SPEC §12). */
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
