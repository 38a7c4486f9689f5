import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ConnectionAuthResponseDto {
  @ApiProperty({ enum: ['none', 'api_key', 'basic', 'bearer', 'oauth2_code', 'oauth2_client_credentials'] }) type!: string;
  @ApiPropertyOptional({ enum: ['header', 'query'] }) in?: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional() authorization_url?: string;
  @ApiPropertyOptional() token_url?: string;
  @ApiPropertyOptional({ type: [String] }) scopes?: string[];
}

export class ConnectionResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'slack' }) connector_id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The owning customer; null: the tenant' }) customer_id!: string | null;
  @ApiProperty({ type: ConnectionAuthResponseDto, description: 'The scheme and its non-secret settings' }) auth!: ConnectionAuthResponseDto;
  @ApiProperty({ type: [String], description: 'Names of the credentials that are set; values are never returned', example: ['token'] }) credentials!: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) settings!: Record<string, unknown>;
  @ApiProperty({ enum: ['active', 'pending_authorization', 'needs_reauth'] }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why the connection needs re-authorization' }) status_reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) token_expires_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_tested_at!: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) last_test_ok!: boolean | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class ConnectionTestResponseDto {
  @ApiProperty({ description: "The connector's test operation succeeded" }) ok!: boolean;
  @ApiPropertyOptional({ description: "The remote side's status (absent when ok)", example: 401 }) status?: number;
  @ApiPropertyOptional({ description: "The remote side's message (absent when ok)", example: 'invalid_auth' }) message?: string;
}

export class OperationSummaryDto {
  @ApiProperty({ example: 'post_message' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) input_schema!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) output_schema!: Record<string, unknown>;
}

/** A page of a connection's operations, with the connector they belong to. */
export class OperationListResponseDto {
  @ApiProperty({ example: 'slack' }) connector_id!: string;
  @ApiProperty({ type: [OperationSummaryDto] }) data!: OperationSummaryDto[];
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!:
    string | null;
}

export const CONNECTION_EXAMPLE = {
  id: '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e',
  name: 'Acme workspace',
  connector_id: 'slack',
  customer_id: null,
  auth: { type: 'bearer' },
  credentials: ['token'],
  settings: {},
  status: 'active',
  status_reason: null,
  token_expires_at: null,
  last_tested_at: '2026-11-24T15:00:00.000Z',
  last_test_ok: true,
  created_at: '2026-11-24T14:59:00.000Z',
  updated_at: '2026-11-24T14:59:00.000Z',
};
