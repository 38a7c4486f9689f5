import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export const RESOURCE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
export const MAX_CONFIG_BYTES = 64 * 1024;
const NAME_RULE = { message: 'must be 1-128 characters of A-Z, a-z, 0-9, _, . and -' };

/** POST /storage/resources; PUT takes the same body and replaces every field. */
export class ResourceRequestDto {
  @ApiProperty({ example: 'orders-db', pattern: RESOURCE_NAME.source, description: 'Unique per tenant and environment' })
  @IsString()
  @Matches(RESOURCE_NAME, NAME_RULE)
  name!: string;

  @ApiProperty({ example: 'postgres', minLength: 1, maxLength: 64, description: 'Free text: what kind of resource this is' })
  @IsString()
  @Length(1, 64)
  type!: string;

  @ApiProperty({ example: { host: 'db.internal', port: 5432, database: 'orders' }, description: `A JSON object, up to ${MAX_CONFIG_BYTES} bytes` })
  @IsObject()
  config!: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, example: 'Orders database, read replica', maxLength: 1000, nullable: true })
  @ValidateIf((o: ResourceRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}

/** PATCH: fields present are changed; `config` is merged key by key (a key set to null is removed). */
export class PatchResourceRequestDto {
  @ApiPropertyOptional({ example: 'orders-db-replica', pattern: RESOURCE_NAME.source })
  @IsOptional()
  @IsString()
  @Matches(RESOURCE_NAME, NAME_RULE)
  name?: string;

  @ApiPropertyOptional({ example: 'postgres', minLength: 1, maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  type?: string;

  @ApiPropertyOptional({ example: { port: 6432, database: null }, description: 'Merged into the stored config at the top level; null removes a key' })
  @IsOptional()
  @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, example: 'Orders database (pgbouncer)', maxLength: 1000, nullable: true, description: 'null clears it' })
  @ValidateIf((o: PatchResourceRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}

export class ListResourcesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'postgres', description: 'Resources of this type only' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  type?: string;
}
