import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@platform/common';

/** `?limit=&cursor=` on every list route (API-CONTRACT: limit 1–200, default 50). */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, example: 50, description: 'Items per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ description: "Opaque cursor from the previous page's next_cursor", example: 'eyJpZCI6IjAxOTQifQ' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}
