import { ApiProperty } from '@nestjs/swagger';

export class FileResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  id!: string;

  @ApiProperty({ example: 'invoice-2026-11.pdf' })
  name!: string;

  @ApiProperty({ type: 'integer', example: 48213, description: 'Bytes' })
  size!: number;

  @ApiProperty({ example: 'application/pdf', description: 'Sniffed from the content at upload' })
  content_type!: string;

  @ApiProperty({ type: String, nullable: true, example: 'application/pdf', description: "What the upload's part header said" })
  declared_content_type!: string | null;

  @ApiProperty({
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: 'SHA-256 of the content, hex (also the ETag of downloads)',
  })
  checksum_sha256!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { customer: 'crm-4711' } })
  metadata!: Record<string, unknown>;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The customer scope it belongs to' })
  customer_id!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;
}

export class VerifyFileResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  id!: string;

  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })
  checksum_sha256!: string;

  @ApiProperty({ example: true, description: 'The stored content still has the checksum recorded at upload' })
  valid!: boolean;
}
