import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IsSafeFileName, IsStandardBase64 } from '../../common/validation/validators';

export class InlineAttachmentDto {
  @ApiProperty({ example: 'invoice.pdf', minLength: 1, maxLength: 255, description: 'No /, \\, CR, LF or NUL' })
  @IsString() @Length(1, 255) @IsSafeFileName()
  fileName!: string;

  @ApiProperty({ example: 'JVBERi0xLjQK', description: 'The file, standard base64 (RFC 4648 §4)' })
  @IsString() @IsStandardBase64()
  content!: string;
}
