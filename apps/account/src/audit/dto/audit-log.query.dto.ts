import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class AuditLogQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    example: '01a206da-b832-746c-8a4d-1556da6bca8e',
    description: 'Uses of this one key only (its `id`). Key names need not be unique: this names one key; a rotated key and its successor are two keys.',
  })
  @IsOptional()
  @IsUUID()
  key_id?: string;

  @ApiPropertyOptional({ example: 'ci-deployer', description: 'Uses of keys with this name only' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  key_name?: string;

  @ApiPropertyOptional({ example: '/v1/automations/run', description: 'Exact request path (no query string)' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  endpoint?: string;

  @ApiPropertyOptional({ enum: ['success', 'error'], example: 'error', description: 'Successful (2xx/3xx) or failed uses only' })
  @IsOptional()
  @IsIn(['success', 'error'])
  status?: 'success' | 'error';

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Uses at or after this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'Uses before this time (ISO 8601)' })
  @IsOptional()
  @IsDateString({ strict: true })
  to?: string;
}

export class UsageQueryDto {
  @ApiPropertyOptional({ example: '2026-11-01T00:00:00Z', description: 'Default: 30 days before `to`' })
  @IsOptional()
  @IsDateString({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'Default: now' })
  @IsOptional()
  @IsDateString({ strict: true })
  to?: string;
}
