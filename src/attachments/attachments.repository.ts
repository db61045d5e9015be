import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface AttachmentRow {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  created_at: Date;
}

export interface NewAttachment {
  id: string;
  userId: string;
  fileName: string;
  contentType: string;
  content: Buffer;
  createdAt: Date;
}

@Injectable()
export class AttachmentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(attachment: NewAttachment): Promise<AttachmentRow> {
    const [row]: AttachmentRow[] = await this.dataSource.query(
      `INSERT INTO attachments (id, user_id, file_name, content_type, size, content, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, file_name, content_type, size, created_at`,
      [attachment.id, attachment.userId, attachment.fileName, attachment.contentType, attachment.content.length, attachment.content, attachment.createdAt],
    );
    return row;
  }

  /** Those of `ids` that this user stored; another user's id is as absent as an unknown one. */
  async findOwned(userId: string, ids: string[], manager: EntityManager = this.dataSource.manager): Promise<AttachmentRow[]> {
    if (ids.length === 0) return [];
    return manager.query(
      `SELECT id, file_name, content_type, size, created_at FROM attachments WHERE user_id = $1 AND id = ANY($2::uuid[])`,
      [userId, ids],
    );
  }
}
