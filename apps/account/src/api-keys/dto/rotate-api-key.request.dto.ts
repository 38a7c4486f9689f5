import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_TRANSITION_SECONDS = 30 * 24 * 3600;

export class RotateApiKeyRequestDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_TRANSITION_SECONDS,
    default: 0,
    example: 86400,
    description: 'How long the old key keeps working (seconds, up to 30 days).',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_TRANSITION_SECONDS)
  transition_period_seconds?: number;
}
