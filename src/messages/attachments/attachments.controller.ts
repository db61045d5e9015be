import { Controller, Post, Req, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser } from '../../auth';
import { RequiresScope } from '../../auth';
import type { AuthUser } from '../../auth';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { UnsupportedMediaTypeError } from '../../platform/problem/problem.errors';
import { AttachmentUploadInterceptor } from './attachment-upload.interceptor';
import { AttachmentsService } from './attachments.service';
import type { UploadedFilePart } from './attachments.service';
import { AttachmentResponse } from './dto/attachment.response';

@ApiTags('attachments')
@ApiBearerAuth()
@Controller('attachments')
export class AttachmentsController {
  constructor(private readonly service: AttachmentsService) {}

  @Post()
  @RequiresScope('send')
  @UseInterceptors(AttachmentUploadInterceptor)
  @ApiOperation({
    summary: 'Store a file to attach to later sends',
    description:
      'One `file` part of at most MAX_ATTACHMENT_BYTES. Send its `id` in `attachmentIds` of POST /sender/send.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
  })
  @ApiCreatedResponse({ type: AttachmentResponse })
  @ApiProblemResponses(400, 401, 413, 415, 429)
  upload(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: UploadedFilePart | undefined,
    @Req() request: Request,
  ): Promise<AttachmentResponse> {
    if (!request.is('multipart/form-data')) {
      throw new UnsupportedMediaTypeError('The body must be multipart/form-data with one part named file.');
    }
    return this.service.store(user.id, file);
  }
}
