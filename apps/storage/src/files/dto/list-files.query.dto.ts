import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListFilesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'invoices/', description: 'Files whose name starts with this (case-sensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({ example: 'application/pdf', description: 'The sniffed content type, exactly' })
  @IsOptional()
  @Matches(/^[\w.+-]+\/[\w.+-]+$/, { message: 'must be a media type such as application/pdf' })
  @Length(3, 255)
  content_type?: string;

  @ApiPropertyOptional({ example: '2026-11-01T00:00:00Z', description: 'Created strictly after this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'Created strictly before this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_before?: string;
}
