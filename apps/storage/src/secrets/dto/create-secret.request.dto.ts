import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { MAX_SECRET_BYTES, SECRET_NAME } from '../secret.record.js';

export class CreateSecretRequestDto {
  @ApiProperty({ example: 'STRIPE_API_KEY', pattern: SECRET_NAME.source, description: 'Unique in the environment.' })
  @IsString()
  @Matches(SECRET_NAME, { message: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _, . and -' })
  name!: string;

  @ApiProperty({
    example: 'sk_live_…',
    writeOnly: true,
    description: `1 byte to ${MAX_SECRET_BYTES} bytes (UTF-8). Stored encrypted; never returned by any route.`,
  })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_SECRET_BYTES, { message: `must be at most ${MAX_SECRET_BYTES} bytes (UTF-8)` })
  value!: string;

  @ApiPropertyOptional({ type: String, example: 'Stripe key used by the billing workflows', maxLength: 1000, nullable: true })
  @ValidateIf((o: CreateSecretRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}
