import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { MAX_SECRET_BYTES } from '../secret.record.js';

export class ReplaceSecretRequestDto {
  @ApiProperty({ example: 'sk_live_…', writeOnly: true, description: `The new value, 1 byte to ${MAX_SECRET_BYTES} bytes (UTF-8).` })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_SECRET_BYTES, { message: `must be at most ${MAX_SECRET_BYTES} bytes (UTF-8)` })
  value!: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 1000,
    nullable: true,
    example: 'Stripe key (rotated 2026-11)',
    description: 'Omitted: unchanged; null: cleared.',
  })
  @ValidateIf((o: ReplaceSecretRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}
