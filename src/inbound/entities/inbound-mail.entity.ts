import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { AuthenticationVerdict } from '../mail-verdicts';

/** A header field of a received mail, as it stood in the header block (docs/inbound.md: every one, in order). */
export interface InboundHeader {
  name: string;
  value: string;
}

/**
 * One received mail, as one user received it (docs/inbound.md): a mail for several users' domains is a
 * row for each, each with only its own envelope recipients.
 */
@Entity('inbound_mails')
@Index('ix_inbound_mails_user_received', ['userId', 'receivedAt', 'id'])
@Index('ix_inbound_mails_received', ['receivedAt'])
export class InboundMailEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column({ type: 'timestamptz', name: 'received_at', precision: 3 })
  receivedAt!: Date;

  /** The envelope sender as given at MAIL FROM; '' for the null sender `<>`. */
  @Column('text', { name: 'mail_from' })
  mailFrom!: string;

  /** This user's envelope recipients, as given at RCPT TO. */
  @Column('text', { name: 'rcpt_to', array: true })
  rcptTo!: string[];

  /** The From header's first mailbox, written as docs/api.md#sending writes mailboxes; null when there is none. */
  @Column('text', { name: 'from_mailbox', nullable: true })
  fromMailbox!: string | null;

  /** The From address's addressKey (the fromEmail filter). */
  @Column('text', { name: 'from_address', nullable: true })
  fromAddress!: string | null;

  @Column('text', { name: 'to_mailboxes', array: true })
  toMailboxes!: string[];

  @Column('text', { name: 'cc_mailboxes', array: true })
  ccMailboxes!: string[];

  /** The addressKeys of To, Cc and this user's envelope recipients (the toEmail filter). */
  @Column('text', { name: 'recipient_addresses', array: true })
  recipientAddresses!: string[];

  @Column('text', { nullable: true })
  subject!: string | null;

  @Column('text', { name: 'message_id', nullable: true })
  messageId!: string | null;

  @Column('text', { nullable: true })
  text!: string | null;

  @Column('text', { nullable: true })
  html!: string | null;

  @Column('jsonb')
  headers!: InboundHeader[];

  @Column('text')
  spf!: AuthenticationVerdict;

  @Column('text')
  dkim!: AuthenticationVerdict;

  @Column('text')
  dmarc!: AuthenticationVerdict;

  /** The user's sent message this mail answers; not a foreign key: retention may delete that message first. */
  @Column('uuid', { name: 'reply_to_message_id', nullable: true })
  replyToMessageId!: string | null;

  /** The mail as it arrived, byte for byte. */
  @Column('bytea', { select: false })
  raw!: Buffer;
}
