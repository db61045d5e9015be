import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer, { memoryStorage, MulterError } from 'multer';
import { Observable } from 'rxjs';
import { BodyLimit } from '../../platform/http/body-limit';
import { boundHeapGrowth } from '../../platform/heap-growth';
import { Slots } from '../../platform/slots';
import { releaseWhenAnswered } from '../../platform/http/release-when-answered';
import { MalformedBodyError, PayloadTooLargeError } from '../../platform/problem/problem.errors';
import type { AuthUser } from '../../auth';
import { AppConfig } from '../../platform/config/app-config';

// Room for the multipart framing around the file: boundaries, and part headers whose file name
// (255 characters) may come percent-encoded. A body longer than the file allows by more is refused.
const FRAMING_BYTES = 16 * 1024;
// Files read and stored at once per process; the other uploads wait with their bodies unread
// (in the socket, where TCP holds the client back), so that 20 concurrent 10 MiB uploads do not
// hold 20 files, and their copies on the way to PostgreSQL, in memory (SPEC's RSS bound).
const UPLOADS_AT_ONCE = 2;
// One user's uploads hold at most one of them, the users waiting being served in turn: one user's
// slow uploads cannot keep every other user's waiting (issue 33).
const UPLOADS_AT_ONCE_PER_USER = 1;

/**
 * Reads the one `file` part of POST /attachments, in memory (it goes into PostgreSQL whole),
 * after the guards, so that nobody without a token gets a body read. A file over
 * MAX_ATTACHMENT_BYTES is refused with 413 as soon as the body passes it: multer alone would
 * read a body of any size to its end first.
 */
@Injectable()
export class AttachmentUploadInterceptor implements NestInterceptor {
  private readonly readFilePart: RequestHandler;
  private readonly uploads = new Slots(UPLOADS_AT_ONCE, UPLOADS_AT_ONCE_PER_USER);

  constructor(private readonly config: AppConfig) {
    this.readFilePart = multer({
      storage: memoryStorage(),
      // One file part and nothing else; busboy stops keeping the file past the size limit.
      limits: { fileSize: config.limits.maxAttachmentBytes, files: 1, fields: 0, parts: 1 },
      // RFC 7578 §4.2: file names are sent as UTF-8, not as busboy's default latin1.
      defParamCharset: 'utf8',
    }).single('file');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const response = context.switchToHttp().getResponse<Response>();
    // Any other body is left unread: the controller answers it with 415.
    if (request.is('multipart/form-data')) {
      // The file is in memory until stored: the heap's growth is bounded from its wait for a place,
      // and the place held, until the answer is sent or the connection ends.
      releaseWhenAnswered(request, response, boundHeapGrowth());
      const release = await this.uploads.take(request.user?.id);
      releaseWhenAnswered(request, response, release);
      const max = this.config.limits.maxAttachmentBytes;
      const limit = new BodyLimit(
        request,
        max + FRAMING_BYTES,
        `The file is larger than MAX_ATTACHMENT_BYTES (${max} bytes).`,
        this.config.limits.bodyReadMs,
      );
      await limit.race(
        () =>
          new Promise<void>((resolve, reject) =>
            this.readFilePart(request, response, (error?: unknown) =>
              error ? reject(uploadError(error, max)) : resolve(),
            ),
          ),
      );
    }
    return next.handle();
  }
}

/** multer's and busboy's failures, in our terms. */
function uploadError(error: unknown, max: number): Error {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new PayloadTooLargeError(`The file is larger than MAX_ATTACHMENT_BYTES (${max} bytes).`);
    return new MalformedBodyError(`${error.message}: the body must hold one part, named file, and nothing else.`);
  }
  return new MalformedBodyError(`The multipart body could not be read: ${(error as Error).message}.`);
}
