import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { AppConfig } from '../config/app-config';
import { AttachmentsController } from './attachments.controller';
import { AttachmentsRepository } from './attachments.repository';
import { AttachmentsService } from './attachments.service';

@Module({
  imports: [
    MulterModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // In memory: the file goes into PostgreSQL whole, and the size limit bounds the buffer.
        storage: memoryStorage(),
        // One file part and nothing else; busboy stops reading past the size limit.
        limits: { fileSize: config.limits.maxAttachmentBytes, files: 1, fields: 0, parts: 1 },
        // RFC 7578 §4.2: file names are sent as UTF-8, not as busboy's default latin1.
        defParamCharset: 'utf8',
      }),
    }),
  ],
  controllers: [AttachmentsController],
  providers: [AttachmentsService, AttachmentsRepository],
  exports: [AttachmentsRepository],
})
export class AttachmentsModule {}
