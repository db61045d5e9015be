import { Injectable } from '@nestjs/common';

/** The time, injectable so that a unit test can move it (a secret rotation's 24 hours, SPEC §11). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
