import { Injectable } from '@nestjs/common';
import { addressKey, asciiDomain } from '../platform/mail/addresses';
import { AppConfig } from '../platform/config/app-config';
import { InboundMailboxes, InboundRecipient } from './inbound-mailboxes';
import { UnsubscribeService } from '../deliverability';
import { recipientKey } from '../messages';
import { TokenRecipients } from '../messages';
import type { ReportTarget } from '../deliverability';
import { VerpAddresses } from '../deliverability';

/** Where mail to one address goes: BOUNCE_DOMAIN's (docs/delivery-and-deliverability.md), or a user's receiving domain (docs/inbound.md). */
export type InboundRoute =
  /** Any local part at a user's receiving domain: stored as received mail (ReceiveInboundMailUseCase). */
  | { kind: 'mailbox'; recipient: InboundRecipient }
  /** `bounces+<token>`: reports about one recipient of one message. */
  | { kind: 'report'; target: ReportTarget; recipient: string }
  /** RFC 5321 §4.5.1 and RFC 2142 require these mailboxes; their mail is logged. */
  | { kind: 'role'; mailbox: 'postmaster' | 'abuse' }
  /** `unsubscribe+<token>`: the List-Unsubscribe mailto: of a bulk message. */
  | { kind: 'unsubscribe'; token: string };

const UNSUBSCRIBE = 'unsubscribe+';
const ROLE_MAILBOXES = ['postmaster', 'abuse'] as const;

/**
 * Decides, at RCPT, whether the listener takes mail for an address, and what the mail is for.
 * BOUNCE_DOMAIN's addresses keep their rules (a user receiving for that name gets none of them).
 */
@Injectable()
export class InboundRoutes {
  /** BOUNCE_DOMAIN in A-labels, as configured in either form. */
  private readonly domain: string | undefined;

  constructor(
    config: AppConfig,
    private readonly verp: VerpAddresses,
    private readonly recipients: TokenRecipients,
    private readonly unsubscribe: UnsubscribeService,
    private readonly mailboxes: InboundMailboxes,
  ) {
    this.domain = config.deliverability.bounceDomain && asciiDomain(config.deliverability.bounceDomain);
  }

  /** The route for an envelope recipient, or undefined: the address is none of ours (550). */
  async route(address: string): Promise<InboundRoute | undefined> {
    // RFC 5321 §4.1.1.3: RCPT TO:<Postmaster>, without a domain, MUST be accepted.
    if (this.domain && addressKey(address) === 'postmaster') return { kind: 'role', mailbox: 'postmaster' };
    // The envelope address as smtp-server parsed it (an A-label domain turned into U-labels); the
    // domain is whatever follows the last @, compared in A-labels (asciiDomain also folds case).
    const at = address.lastIndexOf('@');
    if (!this.domain || at < 1 || asciiDomain(address.slice(at + 1)) !== this.domain) {
      const recipient = await this.mailboxes.recipient(address);
      return recipient && { kind: 'mailbox', recipient };
    }
    const localPart = address.slice(0, at);
    const mailbox = ROLE_MAILBOXES.find((role) => role === localPart.toLowerCase());
    if (mailbox) return { kind: 'role', mailbox };
    if (localPart.toLowerCase().startsWith(UNSUBSCRIBE)) {
      const token = localPart.slice(UNSUBSCRIBE.length);
      return (await this.unsubscribe.target(token)) ? { kind: 'unsubscribe', token } : undefined;
    }
    const ref = this.verp.parse(localPart);
    const named = ref && (await this.recipients.find(ref));
    if (!named) return undefined;
    return {
      kind: 'report',
      target: { messageId: named.messageId, userId: named.userId, recipients: named.entries.map(recipientKey) },
      recipient: recipientKey(named.entry),
    };
  }
}
