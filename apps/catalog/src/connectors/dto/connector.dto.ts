import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListConnectorsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Words matched (case-insensitively) in id, name, description and operation names', example: 'message' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ description: 'Only connectors of this category', example: 'communication' })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]*$/, { message: 'must be a category id such as communication' })
  category?: string;
}

export class ConnectorAuthSchemeDto {
  @ApiProperty({ enum: ['none', 'api_key', 'basic', 'bearer', 'oauth2_code', 'oauth2_client_credentials'] })
  type!: string;
  @ApiPropertyOptional({ enum: ['header', 'query'] }) in?: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() prefix?: string;
  @ApiPropertyOptional() authorization_url?: string;
  @ApiPropertyOptional() token_url?: string;
  @ApiPropertyOptional({ type: [String] }) scopes?: string[];
}

export class ConnectorOperationDto {
  @ApiProperty({ example: 'post_message' }) id!: string;
  @ApiProperty({ example: 'Post a message' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the input; a step input is checked against it' })
  input_schema!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the output' })
  output_schema!: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'How the operation becomes an HTTP request ({{input.x}} placeholders)' })
  http?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) pagination?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [Number], example: [429, 502, 503, 504] }) retryable_statuses?: number[];
}

export class ConnectorSummaryDto {
  @ApiProperty({ example: 'slack' }) id!: string;
  @ApiProperty({ example: 'Slack' }) name!: string;
  @ApiProperty({ example: '1.0.0' }) version!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], example: ['communication'] }) categories!: string[];
  @ApiProperty() icon!: string;
  @ApiProperty({ example: 'platform' }) publisher!: string;
  @ApiProperty({
    enum: ['built_in', 'installed', 'custom'],
    description: 'Built in, installed into this environment from the marketplace, or the environment’s own',
  })
  source!: string;
  @ApiProperty({ type: [String], example: ['bearer', 'oauth2_code'] }) auth_types!: string[];
  @ApiProperty({ type: [String], example: ['post_message', 'list_channels', 'auth_test'] }) operation_ids!: string[];
}

export class ConnectorResponseDto extends ConnectorSummaryDto {
  @ApiProperty({ type: [ConnectorAuthSchemeDto] }) auth!: ConnectorAuthSchemeDto[];
  @ApiProperty({ type: String, nullable: true, example: 'https://slack.com/api' }) base_url!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "JSON Schema of a connection's settings" }) settings_schema!: Record<string, unknown>;
  @ApiProperty({ enum: ['http', 'postgres', 'smtp'] }) driver!: string;
  @ApiProperty({ type: [ConnectorOperationDto] }) operations!: ConnectorOperationDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, example: { operation: 'auth_test', input: {} } }) test_operation!: Record<string, unknown>;
}

export const CONNECTOR_SUMMARY_EXAMPLE = {
  id: 'slack',
  name: 'Slack',
  version: '1.0.0',
  description: 'Posts messages and reads channels of a Slack workspace through the Web API.',
  categories: ['communication'],
  icon: 'https://cdn.platform.local/icons/slack.svg',
  publisher: 'platform',
  source: 'built_in',
  auth_types: ['bearer', 'oauth2_code'],
  operation_ids: ['post_message', 'list_channels', 'auth_test'],
};
