import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/** A user's sending domain (docs/api.md#routes, docs/delivery-and-deliverability.md): its DKIM key pair, and whether DNS publishes the key. */
@Entity('sending_domains')
@Unique('uq_sending_domains_user_name', ['userId', 'name'])
// One key record per name and selector in DNS: two users of one domain never share a selector.
@Unique('uq_sending_domains_name_selector', ['name', 'selector'])
@Index('ix_sending_domains_user_created', ['userId', 'createdAt', 'id'])
// One user receives for a domain name (docs/inbound.md), though several may send from it.
@Index('uq_sending_domains_receiver', ['name'], { unique: true, where: 'receiving = true' })
export class SendingDomainEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  /** Lower-case, internationalized names in A-label form (toDomainName). */
  @Column('text')
  name!: string;

  @Column('text')
  selector!: string;

  /** Base64 of the DER SubjectPublicKeyInfo: the `p=` of the DKIM record. */
  @Column('text', { name: 'public_key' })
  publicKey!: string;

  /** The PKCS #8 private key, sealed by DkimKeyCipher; never leaves the service. */
  @Column('bytea', { name: 'private_key', select: false })
  privateKey!: Buffer;

  @Column({ type: 'timestamptz', name: 'verified_at', precision: 3, nullable: true })
  verifiedAt!: Date | null;

  /** Whether the inbound listener takes mail for any address at this name for this user (docs/inbound.md). */
  @Column('boolean', { default: false })
  receiving!: boolean;

  /** Why the service turned receiving off (the domain went back to pending); null once the user turns it on or off. */
  @Column('text', { name: 'receiving_stopped', nullable: true })
  receivingStopped!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;
}
