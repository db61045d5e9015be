import { Injectable } from '@nestjs/common';
import { DataCipher } from '../../platform/data-cipher';
import { AppConfig } from '../../platform/config/app-config';

/**
 * Encrypts endpoint signing secrets at rest, as DKIM keys are (DataCipher, under a key of its own
 * purpose, bound to the endpoint's id). The purpose is also written in the migration that sealed
 * the secrets stored before (1765209600000-sealed-endpoint-secrets.ts).
 */
@Injectable()
export class EndpointSecretCipher extends DataCipher {
  constructor(config: AppConfig) {
    super(config.deliverability.encryptionKey, 'mailroom webhook endpoint secret');
  }

  sealSecret(secret: string, endpointId: string): Buffer {
    return this.seal(Buffer.from(secret, 'utf8'), endpointId);
  }

  openSecret(sealed: Buffer, endpointId: string): string {
    return this.open(sealed, endpointId).toString('utf8');
  }
}
