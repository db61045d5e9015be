import { Injectable } from '@nestjs/common';
import { EntityManager, In, Repository } from 'typeorm';
import { Database } from '../../platform/database/database';
import { AttachmentEntity } from './entities/attachment.entity';

/** A stored attachment as its owner sees it: everything but the bytes. */
export type StoredAttachment = Pick<AttachmentEntity, 'id' | 'fileName' | 'contentType' | 'size' | 'createdAt'>;

export type NewAttachment = Omit<AttachmentEntity, 'size'>;

@Injectable()
export class AttachmentsRepository {
  private readonly attachments: Repository<AttachmentEntity>;

  constructor(database: Database) {
    this.attachments = database.repository(AttachmentEntity);
  }

  async create(attachment: NewAttachment): Promise<StoredAttachment> {
    const stored = { ...attachment, size: attachment.content.length };
    await this.attachments.insert(stored);
    const { id, fileName, contentType, size, createdAt } = stored;
    return { id, fileName, contentType, size, createdAt };
  }

  /**
   * Those of `ids` that this user stored, without their bytes; another user's id is as absent as
   * an unknown one. Pass the manager of a send's transaction to read within it.
   */
  async findOwned(
    userId: string,
    ids: string[],
    manager: EntityManager = this.attachments.manager,
  ): Promise<StoredAttachment[]> {
    if (ids.length === 0) return [];
    return manager.getRepository(AttachmentEntity).find({
      select: { id: true, fileName: true, contentType: true, size: true, createdAt: true },
      where: { userId, id: In(ids) },
    });
  }

  /** The bytes of those of `ids` that this user stored, by id (a message's stored attachments, docs/api.md#reading-back). */
  async contentOf(userId: string, ids: string[]): Promise<Map<string, Buffer>> {
    if (ids.length === 0) return new Map();
    const rows = await this.attachments.find({ select: { id: true, content: true }, where: { userId, id: In(ids) } });
    return new Map(rows.map((row) => [row.id, row.content]));
  }
}
