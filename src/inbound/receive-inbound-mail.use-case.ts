import { Injectable, Logger } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { addressKey } from '../platform/mail/addresses';
import { Slots } from '../platform/slots';
import type { SpooledMessage } from '../platform/smtp/spooled-message';
import { InboundMailLimits } from './inbound-mail-limits';
import { InboundQuota } from './inbound-quota';
import type { InboundRecipient } from './inbound-mailboxes';
import { InboundRepository, NewInboundMail } from './inbound.repository';
import { MailOrigin, MailVerdicts } from './mail-verdicts';
import { structureRefusal } from './mime-structure';
import { parseInboundMail, ParsedInboundMail } from './parsed-inbound-mail';
import { ReplyLinks } from './reply-links';

/** Why a mail is refused whole at DATA: the SMTP reply to give (docs/inbound.md's documented refusals). */
export interface InboundRefusal {
  code: 452 | 552 | 554;
  message: string;
}

const tooLarge = (what: string): InboundRefusal => ({ code: 552, message: `5.3.4 Message refused: ${what}` });

/**
 * Takes a received mail for its users' receiving domains (docs/inbound.md): checks its shape, reads it
 * once (mailparser, mailauth), and stores it once for each user with that user's own recipients,
 * all in one transaction. Mails wait their turn on disk (`mailsAtOnce` large and `smallMailsAtOnce`
 * small ones are read at a time), so a process holds a bounded number in memory however many
 * arrive together.
 */
@Injectable()
export class ReceiveInboundMailUseCase {
  private readonly logger = new Logger('InboundMail');
  private readonly inMemory: Slots;
  // Small mails do not queue behind large ones: together they hold at most 8 MiB besides the large ones' share.
  private readonly smallInMemory: Slots;

  constructor(
    private readonly limits: InboundMailLimits,
    private readonly verdicts: MailVerdicts,
    private readonly replies: ReplyLinks,
    private readonly inbound: InboundRepository,
    private readonly quota: InboundQuota,
  ) {
    this.inMemory = new Slots(limits.mailsAtOnce);
    this.smallInMemory = new Slots(limits.smallMailsAtOnce);
  }

  /** Resolves once every copy is stored (undefined), or with the refusal; rejects when storing failed (nothing is stored). */
  async execute(
    mail: SpooledMessage,
    origin: MailOrigin,
    recipients: InboundRecipient[],
  ): Promise<InboundRefusal | undefined> {
    if (mail.longestLine > this.limits.lineBytes) return tooLarge(`a line longer than ${this.limits.lineBytes} bytes`);
    if (mail.lines > this.limits.lines) return tooLarge(`more than ${this.limits.lines} lines`);
    // Both stream from disk holding a line or a chunk at a time, so they run before the mail's turn
    // in memory: a sender's DNS that never answers holds no slot another mail waits for.
    const refusal = await structureRefusal(mail.stream(), this.limits);
    if (refusal) return tooLarge(refusal);
    const verdicts = await this.verdicts.of(mail, origin);
    // Again at DATA: other sessions may have filled quotas since RCPT. One reply answers the whole
    // mail, so it is refused (and kept by its sender) only when every user of it is full. Otherwise
    // every copy is stored, a full user's too: it passed RCPT under its quota, and the quota may be
    // passed by mails in flight, whereas a copy dropped after 250 would be mail lost (RFC 5321 §6.1).
    const overQuota = await this.quota.everyUserFull(recipients);
    if (overQuota) return { code: 452, message: overQuota };
    const release = await (mail.size > this.limits.smallMailBytes ? this.inMemory : this.smallInMemory).take();
    try {
      let parsed: ParsedInboundMail;
      try {
        parsed = await parseInboundMail(mail.stream(), this.limits);
      } catch (err) {
        this.logger.warn({ err }, 'An inbound mail could not be read as MIME');
        return { code: 554, message: '5.6.0 Message refused: it could not be read as MIME' };
      }
      if (parsed.attachments.length > this.limits.attachments)
        return tooLarge(`more than ${this.limits.attachments} attachments`);
      const raw = await mail.read();
      const receivedAt = new Date();
      const mails: NewInboundMail[] = [];
      for (const [userId, rcptTo] of byUser(recipients)) {
        mails.push({
          id: uuidv7(),
          userId,
          receivedAt,
          mailFrom: origin.mailFrom,
          rcptTo,
          fromMailbox: parsed.fromMailbox,
          fromAddress: parsed.fromAddress,
          toMailboxes: parsed.to,
          ccMailboxes: parsed.cc,
          recipientAddresses: [...new Set([...parsed.headerRecipients, ...rcptTo.map(addressKey)])],
          subject: parsed.subject,
          messageId: parsed.messageId,
          text: parsed.text,
          html: parsed.html,
          headers: parsed.headers,
          ...verdicts,
          replyToMessageId: await this.replies.repliedTo(userId, parsed.answers),
          raw,
          attachments: parsed.attachments,
        });
      }
      await this.inbound.store(mails);
      this.logger.log(
        { users: mails.length, bytes: raw.length, remoteAddress: origin.ip },
        'Inbound mail stored for its receiving domains',
      );
      return undefined;
    } finally {
      release();
    }
  }
}

/** Each user's envelope recipients, in the order given. */
function byUser(recipients: InboundRecipient[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const { userId, address } of recipients) users.set(userId, [...(users.get(userId) ?? []), address]);
  return users;
}
