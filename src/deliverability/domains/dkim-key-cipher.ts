import { Injectable } from '@nestjs/common';
import { DataCipher } from '../../platform/data-cipher';
import { AppConfig } from '../../platform/config/app-config';

/**
 * Encrypts DKIM private keys at rest (docs/delivery-and-deliverability.md) under a key of their own purpose; the domain's id
 * is the row id bound in (DataCipher).
 */
@Injectable()
export class DkimKeyCipher extends DataCipher {
  constructor(config: AppConfig) {
    super(config.deliverability.encryptionKey, 'mailroom dkim private key');
  }
}
