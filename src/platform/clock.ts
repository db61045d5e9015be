import { Injectable } from '@nestjs/common';

/** The time, injectable so that a unit test can move it (a secret rotation's 24 hours, docs/delivery-and-deliverability.md#webhooks). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
