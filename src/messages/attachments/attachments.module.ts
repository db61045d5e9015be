import { Module } from '@nestjs/common';
import { AttachmentUploadInterceptor } from './attachment-upload.interceptor';
import { AttachmentsController } from './attachments.controller';
import { AttachmentsRepository } from './attachments.repository';
import { AttachmentsService } from './attachments.service';

@Module({
  controllers: [AttachmentsController],
  providers: [AttachmentsService, AttachmentsRepository, AttachmentUploadInterceptor],
  exports: [AttachmentsRepository],
})
export class AttachmentsModule {}
