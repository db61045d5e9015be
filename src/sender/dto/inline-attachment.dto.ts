import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsMimeType, IsSafeFileName, IsStandardBase64, TextLength } from '../../common/validation/validators';

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
}
