import { Injectable } from '@nestjs/common';
import { RecipientRef, RecipientTokens } from '../../messages';
import { AppConfig } from '../../platform/config/app-config';

const BOUNCES = 'bounces+';

/**
 * The VERP envelope sender of docs/delivery-and-deliverability.md, `bounces+<token>@BOUNCE_DOMAIN`: a report sent back to it
 * names, unforgeably, the message and recipient it is about. Without BOUNCE_DOMAIN there is none.
 */
@Injectable()
export class VerpAddresses {
  private readonly tokens: RecipientTokens | undefined;
  readonly domain: string | undefined;

  constructor(config: AppConfig) {
    this.domain = config.deliverability.bounceDomain;
    // Only then: reading the key creates it in DATA_DIR when it is not given.
    this.tokens = this.domain ? new RecipientTokens(config.deliverability.encryptionKey, 'verp') : undefined;
  }

  /** The envelope sender for one recipient of one message; undefined without BOUNCE_DOMAIN. */
  envelopeSender(ref: RecipientRef): string | undefined {
    return this.tokens && `${BOUNCES}${this.tokens.encode(ref)}@${this.domain}`;
  }

  /** The recipient an envelope sender of ours names; undefined for any other address or a forged token. */
  parse(localPart: string): RecipientRef | undefined {
    if (!this.tokens || !localPart.toLowerCase().startsWith(BOUNCES)) return undefined;
    return this.tokens.decode(localPart.slice(BOUNCES.length));
  }
}
