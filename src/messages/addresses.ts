import { v5 as uuidv5 } from 'uuid';
import { addressKey } from '../platform/mail/addresses';

// Fixed forever: changing it would give every existing sender a new id.
const SENDER_NAMESPACE = '8c4f5f1e-3b0a-4d3e-9c55-6f1f2f0d7a21';

/**
 * The `senderId` of a user's From address: a name-based UUID, so the same user and address
 * (in any letter case) always give the same id, and a filter by address needs no look-up.
 */
export function senderIdFor(userId: string, email: string): string {
  return uuidv5(`${userId}\n${addressKey(email)}`, SENDER_NAMESPACE);
}
