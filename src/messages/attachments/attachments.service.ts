import { Injectable } from '@nestjs/common';
import { lookup as contentTypeOf } from 'mime-types';
import { v7 as uuidv7 } from 'uuid';
import { servableMediaType } from '../media-type';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { isSafeFileName } from '../../platform/validation/validators';
import { AttachmentsRepository, StoredAttachment } from './attachments.repository';
import { AttachmentResponse } from './dto/attachment.response';

/** What the multipart parser hands over of the `file` part. */
export interface UploadedFilePart {
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

@Injectable()
export class AttachmentsService {
  constructor(private readonly attachments: AttachmentsRepository) {}

  async store(userId: string, file: UploadedFilePart | undefined): Promise<AttachmentResponse> {
    if (!file) {
      throw new InvalidInputError([{ field: 'file', message: 'a multipart/form-data part named file is required' }]);
    }
    const fileName = file.originalname;
    if (fileName.length < 1 || fileName.length > 255 || !isSafeFileName(fileName)) {
      throw new InvalidInputError([
        { field: 'file', message: 'the file name must be 1–255 characters without /, \\, CR, LF or NUL' },
      ]);
    }
    const stored = await this.attachments.create({
      id: uuidv7(),
      userId,
      fileName,
      contentType: contentTypeFor(fileName, file.mimetype),
      content: file.buffer,
      createdAt: new Date(),
    });
    return mapAttachment(stored);
  }
}

/**
 * The type the name implies, as mail clients go by the name too; else the part's own type when
 * well-formed. (busboy reports a part without a usable Content-Type as text/plain, RFC 7578.)
 */
function contentTypeFor(fileName: string, declared: string): string {
  return contentTypeOf(fileName) || servableMediaType(declared);
}

function mapAttachment(attachment: StoredAttachment): AttachmentResponse {
  return {
    id: attachment.id,
    fileName: attachment.fileName,
    contentType: attachment.contentType,
    size: attachment.size,
    createdAt: attachment.createdAt.toISOString(),
  };
}
