import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  IsContentId,
  IsMimeType,
  IsSafeFileName,
  IsStandardBase64,
  TextLength,
} from '../../platform/validation/validators';

export class InlineAttachmentDto {
  @ApiProperty({ example: 'invoice.txt', minLength: 1, maxLength: 255, description: 'No /, \\, CR, LF or NUL' })
  @IsString()
  @TextLength(1, 255)
  @IsSafeFileName()
  fileName!: string;

  @ApiProperty({
    format: 'byte',
    example: 'SW52b2ljZSAxMjM0LCB0b3RhbCA0Mi4wMCBFVVIK',
    description: 'The file, standard base64 (RFC 4648 §4)',
  })
  @IsString()
  @IsStandardBase64()
  content!: string;

  @ApiPropertyOptional({
    example: 'text/plain',
    maxLength: 255,
    description: 'MIME type (type/subtype, no parameters); absent: guessed from fileName',
  })
  @IsOptional()
  @IsString()
  @IsMimeType()
  contentType?: string;

  @ApiPropertyOptional({
    example: 'logo@example.com',
    minLength: 1,
    maxLength: 255,
    pattern: '^[A-Za-z0-9._@-]+$',
    description:
      'Sends the file inline with `Content-ID: <contentId>`, for `cid:` references in html (`<img src="cid:logo@example.com">`): 1-255 letters, digits and . - _ @, no two alike in one message (letter case aside)',
  })
  @IsOptional()
  @IsString()
  @TextLength(1, 255)
  @IsContentId()
  contentId?: string;
}
