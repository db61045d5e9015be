import { Injectable } from '@nestjs/common';

/**
 * Mail first (docs/scaling.md#mail-first): a worker's job loops share one thread, and its database
 * the CPU of the same machine. While messages wait for a delivery slot, the webhook loop takes
 * only a few slots, and its events catch up once the mail has gone; a message waits for nothing
 * but mail before it.
 */
@Injectable()
export class MailFirst {
  private deliveriesWaiting: () => boolean = () => false;

  /** Set by the delivery loop of this process: how to know that its messages wait for a slot. */
  watchDeliveries(waiting: () => boolean): void {
    this.deliveriesWaiting = waiting;
  }

  /** Whether messages wait for a delivery slot in this process now. */
  mailWaiting(): boolean {
    return this.deliveriesWaiting();
  }
}
