import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AttachmentEntity } from './entities/attachment.entity';

/** A stored attachment as its owner sees it: everything but the bytes. */
export type StoredAttachment = Pick<AttachmentEntity, 'id' | 'fileName' | 'contentType' | 'size' | 'createdAt'>;

/** The shape the send intake reads (snake_case, as it comes from SQL). */
export interface AttachmentRow {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  created_at: Date;
}

export type NewAttachment = Omit<AttachmentEntity, 'size'>;

@Injectable()
export class AttachmentsRepository {
  constructor(@InjectRepository(AttachmentEntity) private readonly attachments: Repository<AttachmentEntity>) {}

  async create(attachment: NewAttachment): Promise<StoredAttachment> {
    const stored = { ...attachment, size: attachment.content.length };
    await this.attachments.insert(stored);
    const { id, fileName, contentType, size, createdAt } = stored;
    return { id, fileName, contentType, size, createdAt };
  }

  /**
   * Those of `ids` that this user stored; another user's id is as absent as an unknown one.
   * Raw SQL: it runs inside each send's transaction, and its callers read the row shape above.
   */
  async findOwned(userId: string, ids: string[], manager: EntityManager = this.attachments.manager): Promise<AttachmentRow[]> {
    if (ids.length === 0) return [];
    return manager.query(
      `SELECT id, file_name, content_type, size, created_at FROM attachments WHERE user_id = $1 AND id = ANY($2::uuid[])`,
      [userId, ids],
    );
  }
}
