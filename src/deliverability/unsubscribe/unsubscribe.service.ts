import { Injectable } from '@nestjs/common';
import { addressOf } from '../../platform/validation/mailbox';
import { recipientKey } from '../../messages';
import { TokenRecipients } from '../../messages';
import { SuppressionsRepository } from '../suppressions/suppressions.repository';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/** The recipient an unsubscribe token names, resolved through its stored message. */
export interface UnsubscribeTarget {
  /** The owner of the message, whose suppression list the address goes on. */
  userId: string;
  messageId: string;
  /** The address part of the recipient, as given. */
  address: string;
  /** The address part of the message's From: the sender the recipient leaves. */
  sender: string;
}

/**
 * One-click unsubscribe (docs/delivery-and-deliverability.md, RFC 8058): a token from a List-Unsubscribe link or address
 * puts its recipient on the message owner's suppression list, reason `unsubscribe`.
 */
@Injectable()
export class UnsubscribeService {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly recipients: TokenRecipients,
    private readonly suppressions: SuppressionsRepository,
  ) {}

  /**
   * The recipient a token names, or undefined for a forged, altered or malformed token, or one
   * naming a message or position that does not exist. Changes nothing (the confirmation page).
   */
  async target(token: string): Promise<UnsubscribeTarget | undefined> {
    const ref = this.tokens.decode(token);
    if (!ref) return undefined;
    const named = await this.recipients.find(ref);
    return (
      named && {
        userId: named.userId,
        messageId: named.messageId,
        address: addressOf(named.entry),
        sender: addressOf(named.sender),
      }
    );
  }

  /**
   * Suppresses the recipient a token names and answers with it (the confirmation page names it);
   * undefined, changing nothing, when the token names none. The entry stops bulk mail only (
   * docs/delivery-and-deliverability.md); an address already on the list keeps its entry, so a hard bounce or complaint is never
   * narrowed to an unsubscribe and a second request changes nothing.
   */
  async suppress(token: string): Promise<UnsubscribeTarget | undefined> {
    const target = await this.target(token);
    if (target)
      await this.suppressions.add({
        userId: target.userId,
        email: recipientKey(target.address),
        reason: 'unsubscribe',
        messageId: target.messageId,
      });
    return target;
  }

  /**
   * Undoes an unsubscribe: takes the address's `unsubscribe` entry off the owner's list, and no
   * other (a bounce, a complaint or the owner's own entry stays). `undone` says whether there was
   * one; undefined, changing nothing, when the token names no recipient.
   */
  async resubscribe(token: string): Promise<(UnsubscribeTarget & { undone: boolean }) | undefined> {
    const target = await this.target(token);
    if (!target) return undefined;
    return {
      ...target,
      undone: await this.suppressions.remove(target.userId, recipientKey(target.address), 'unsubscribe'),
    };
  }
}
