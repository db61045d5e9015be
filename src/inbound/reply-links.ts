import { Injectable } from '@nestjs/common';
import { asciiDomain, domainOf } from '../platform/mail/addresses';
import { addressOf } from '../platform/validation/mailbox';
import { isUuid } from '../platform/uuid';
import { MessagesRepository } from '../messages';

/** At most this many Message-IDs of a References chain are looked up (each one primary-key read). */
const MAX_LOOKUPS = 20;

/**
 * Which of a user's sent messages a received mail answers (docs/inbound.md `replyToMessageId`). A sent
 * message's Message-ID is `<its id@the From address's domain>` (src/messages/mime/mime.ts), so a
 * named Message-ID is looked up by its id among the user's messages, and holds only when its
 * domain is that message's sender's: no table of Message-IDs, no scan.
 */
@Injectable()
export class ReplyLinks {
  constructor(private readonly messages: MessagesRepository) {}

  /** `answers`: In-Reply-To's ids, then References' (the nearest ancestor last); the first that names a message of the user wins. */
  async repliedTo(userId: string, answers: string[]): Promise<string | null> {
    const candidates = [...new Set(answers.map(ourMessageId).filter((id) => id !== undefined))];
    for (const { id, domain } of candidates.slice(0, MAX_LOOKUPS)) {
      const message = await this.messages.getById(userId, id);
      if (message && sameDomain(domainOf(addressOf(message.sender)), domain)) return message.id;
    }
    return null;
  }
}

// Compared in A-labels: the Message-ID may carry the domain either way.
const sameDomain = (a: string, b: string) =>
  (asciiDomain(a) || a.toLowerCase()) === (asciiDomain(b) || b.toLowerCase());

/** The id and domain of a Message-ID shaped as ours (`<uuid@domain>`), else undefined. */
function ourMessageId(messageId: string): { id: string; domain: string } | undefined {
  const match = /^<?([^@<>\s]+)@([^@<>\s]+)>?$/.exec(messageId.trim());
  if (!match || !isUuid(match[1])) return undefined;
  return { id: match[1].toLowerCase(), domain: match[2] };
}
