import { Injectable } from '@nestjs/common';
import type { RecipientRef } from './recipient-token';
import { Database } from '../platform/database/database';
import { deliveryOrder } from './recipients';

/** The recipient a token names, with the message's owner. */
export interface NamedRecipient {
  messageId: string;
  userId: string;
  /** The recipient as given (a mailbox or an address). */
  entry: string;
  /** Every recipient of the message, as given, in delivery order. */
  entries: string[];
  /** The message's From, as given: the sender a recipient leaves (the unsubscribe page names it). */
  sender: string;
}

/**
 * Resolves recipient tokens (docs/delivery-and-deliverability.md) through their stored message. The one read by message id
 * alone, without its owner: the caller holds an HMAC token naming the message, and the token,
 * not a login, is the authority. Nothing of the message but its owner, sender and recipients is read.
 */
@Injectable()
export class TokenRecipients {
  constructor(private readonly database: Database) {}

  /** The recipient, or undefined when the message is gone or has no such position. */
  async find({ messageId, recipient }: RecipientRef): Promise<NamedRecipient | undefined> {
    const [row] = await this.database.query<
      { user_id: string; sender: string; recipients: string[]; cc: string[] | null; bcc: string[] | null }[]
    >(`SELECT user_id, sender, recipients, cc, bcc FROM messages WHERE id = $1`, [messageId]);
    const entries = row ? deliveryOrder(row) : [];
    const entry = entries[recipient];
    return entry === undefined ? undefined : { messageId, userId: row.user_id, entry, entries, sender: row.sender };
  }
}
