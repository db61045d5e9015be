import { Injectable } from '@nestjs/common';
import { lookup as contentTypeOf } from 'mime-types';
import { v7 as uuidv7 } from 'uuid';
import { InvalidInputError } from '../common/problem/problem.errors';
import { isSafeFileName } from '../common/validation/validators';
import { AttachmentsRepository, StoredAttachment } from './attachments.repository';
import { AttachmentResponse } from './dto/attachment.response';

/** What the multipart parser hands over of the `file` part. */
export interface UploadedFilePart {
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

// type/subtype in RFC 6838 characters: nothing that could break out of a Content-Type header.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

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
  const type = declared.toLowerCase();
  return contentTypeOf(fileName) || (MEDIA_TYPE.test(type) ? type : 'application/octet-stream');
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
