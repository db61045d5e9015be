import { Injectable } from '@nestjs/common';
import { RecipientTokens } from '../../messages';
import { AppConfig } from '../../platform/config/app-config';

/** The tokens of unsubscribe links and addresses: under a key of their own purpose, so a VERP token is worthless here. */
@Injectable()
export class UnsubscribeTokens extends RecipientTokens {
  constructor(config: AppConfig) {
    super(config.deliverability.encryptionKey, 'unsubscribe');
  }
}
