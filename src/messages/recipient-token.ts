import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../platform/uuid';

/** What a token names: one recipient of one message. */
export interface RecipientRef {
  messageId: string;
  /** The recipient's position in the message's delivery order: its `to` entries, then `cc`, then `bcc`. */
  recipient: number;
}

const MAC_BYTES = 9;
const PAYLOAD_BYTES = 16 + 2;
const TOKEN = new RegExp(`^[0-9a-f]{${(PAYLOAD_BYTES + MAC_BYTES) * 2}}$`);

/**
 * Tokens that name a recipient of a message unforgeably (an HMAC under a key of their own
 * purpose): the VERP envelope sender's `bounces+<token>` and the one-click unsubscribe link.
 * Lower-case hex, 54 characters: it survives mail systems that fold the case of a local part,
 * and `bounces+<token>` stays inside a local part's 64 octets (RFC 5321 §4.5.3.1.1). A 72-bit
 * MAC is far beyond guessing over SMTP or HTTP.
 */
export class RecipientTokens {
  private readonly key: Buffer;

  /** `purpose` separates the keys, so that a token made for one use is worthless for another. */
  constructor(masterKey: string, purpose: 'verp' | 'unsubscribe') {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, '', `mailroom recipient token: ${purpose}`, 32));
  }

  encode({ messageId, recipient }: RecipientRef): string {
    if (!isUuid(messageId) || !Number.isInteger(recipient) || recipient < 0 || recipient > 0xffff) {
      throw new RangeError(`no token for recipient ${recipient} of ${messageId}`);
    }
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    Buffer.from(messageId.replace(/-/g, ''), 'hex').copy(payload);
    payload.writeUInt16BE(recipient, 16);
    return Buffer.concat([payload, this.mac(payload)]).toString('hex');
  }

  /** The recipient a token names, or undefined for anything this key did not make. */
  decode(token: string): RecipientRef | undefined {
    const hexToken = token.toLowerCase();
    if (!TOKEN.test(hexToken)) return undefined;
    const bytes = Buffer.from(hexToken, 'hex');
    const payload = bytes.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), this.mac(payload))) return undefined;
    const hex = payload.subarray(0, 16).toString('hex');
    const messageId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return { messageId, recipient: payload.readUInt16BE(16) };
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }
}
