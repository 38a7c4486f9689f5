import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListMarketplaceQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['connector', 'template'], description: 'Only connectors, or only templates' })
  @IsOptional()
  @IsIn(['connector', 'template'])
  kind?: 'connector' | 'template';

  @ApiPropertyOptional({ description: 'Only listings of this category', example: 'monitoring' })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]*$/, { message: 'must be a category id such as monitoring' })
  category?: string;

  @ApiPropertyOptional({ description: 'Text matched in slug, name, description and publisher', example: 'incident' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class ListingResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['connector', 'template'] }) kind!: string;
  @ApiProperty({ example: 'pagerduty', description: 'The connector or template id' }) slug!: string;
  @ApiProperty({ example: 'PagerDuty' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ example: 'Platform Labs' }) publisher!: string;
  @ApiProperty({ example: '1.2.0' }) version!: string;
  @ApiProperty({ type: [String] }) categories!: string[];
  @ApiProperty({ description: 'Installs across all tenants', example: 1204 }) installs!: number;
  @ApiProperty({ format: 'date-time' }) published_at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Connectors: the version installed in this environment (null: not installed)' })
  installed_version!: string | null;
}

export class InstallResponseDto {
  @ApiProperty({ format: 'uuid' }) listing_id!: string;
  @ApiProperty({ enum: ['connector', 'template'] }) kind!: string;
  @ApiPropertyOptional({ description: 'Connectors: the connector id now usable in connections' }) connector_id?: string;
  @ApiPropertyOptional({ description: 'Connectors: the version installed' }) version?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Templates: the workflow created' }) workflow_id?: string;
}
