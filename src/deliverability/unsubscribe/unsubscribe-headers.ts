import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/** What the headers need of a message. */
export interface UnsubscribableMail {
  id: string;
  bulkSendingId: string | null;
}

/**
 * The List-Unsubscribe headers of one recipient's copy of a message (docs/delivery-and-deliverability.md, RFC 2369, RFC 8058).
 * Only bulk mail (a `bulkSendingId`) has them: a password reset offers no unsubscribing. The token
 * names the recipient, so each recipient's copy carries its own headers.
 */
@Injectable()
export class UnsubscribeHeaders {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly config: AppConfig,
  ) {}

  /** `recipientPosition` counts the stored message's to, then cc, then bcc, from 0, whichever were suppressed since. */
  for(message: UnsubscribableMail, recipientPosition: number): Record<string, string> {
    if (message.bulkSendingId === null) return {};
    const token = this.tokens.encode({ messageId: message.id, recipient: recipientPosition });
    const { publicUrl, bounceDomain } = this.config.deliverability;
    // The HTTPS link first: RFC 8058 one-click needs it, and clients take the first link they can use (RFC 2369 §2).
    const links = [
      `<${publicUrl}/unsubscribe/${token}>`,
      ...(bounceDomain ? [`<mailto:unsubscribe+${token}@${bounceDomain}>`] : []),
    ];
    return { 'List-Unsubscribe': links.join(', '), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }
}
