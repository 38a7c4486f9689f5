import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { PageQueryDto, MaxItems } from '@platform/service';

export const AUTH_TYPES = ['none', 'api_key', 'basic', 'bearer', 'oauth2_code', 'oauth2_client_credentials'] as const;

/** One object for every scheme; the service checks which fields the chosen `type` needs. Secret fields are write-only. */
export class ConnectionAuthDto {
  @ApiProperty({ enum: AUTH_TYPES, example: 'bearer' })
  @IsIn(AUTH_TYPES)
  type!: (typeof AUTH_TYPES)[number];

  @ApiPropertyOptional({ description: 'api_key: the key (secret, write-only)', example: 'sk_live_…' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(8192)
  key?: string;

  @ApiPropertyOptional({ enum: ['header', 'query'], description: "api_key: where the key goes (default: the connector's)" })
  @IsOptional()
  @IsIn(['header', 'query'])
  in?: 'header' | 'query';

  @ApiPropertyOptional({ description: 'api_key: header or query parameter name', example: 'X-API-Key' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, { message: 'must be a header or parameter name' })
  name?: string;

  @ApiPropertyOptional({ description: 'basic: user name (secret)', example: 'report-reader' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  username?: string;

  @ApiPropertyOptional({ description: 'basic: password (secret, write-only)' })
  @IsOptional()
  @IsString()
  @MaxLength(8192)
  password?: string;

  @ApiPropertyOptional({ description: 'bearer: the token (secret, write-only)', example: 'xoxb-…' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(16384)
  token?: string;

  @ApiPropertyOptional({ description: 'oauth2_*: the client id registered with the provider', example: 'platform-app' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  client_id?: string;

  @ApiPropertyOptional({ description: 'oauth2_*: the client secret (write-only; optional for public clients using PKCE)' })
  @IsOptional()
  @IsString()
  @MaxLength(8192)
  client_secret?: string;

  @ApiPropertyOptional({ description: "oauth2_code: the provider's authorization endpoint (default: the connector's)" })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  @MaxLength(2048)
  authorization_url?: string;

  @ApiPropertyOptional({ description: "oauth2_*: the provider's token endpoint (default: the connector's)" })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  @MaxLength(2048)
  token_url?: string;

  @ApiPropertyOptional({
    description: "oauth2_code: the provider's issuer identifier, checked against the iss of its answers (RFC 9207)",
    example: 'https://login.example.com',
  })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  @MaxLength(2048)
  issuer?: string;

  @ApiPropertyOptional({ type: [String], description: "oauth2_*: scopes to ask for (default: the connector's)", example: ['chat:write'] })
  @IsOptional()
  @IsArray()
  @MaxItems(100)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  scopes?: string[];
}

export class CreateConnectionRequestDto {
  @ApiProperty({ example: 'Acme workspace', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ example: 'slack', description: 'A connector id from GET /catalog/connectors' })
  @Matches(/^[a-z][a-z0-9-]{1,63}$/, { message: 'must be a connector id' })
  connector_id!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The customer who owns the connection (a customer key: its own, implied). Absent: the tenant’s.' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;

  @ApiProperty({ type: ConnectionAuthDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectionAuthDto)
  auth!: ConnectionAuthDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Non-secret settings, checked against the connector's settings_schema",
    example: {},
  })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;
}

export class UpdateConnectionRequestDto {
  @ApiPropertyOptional({ example: 'Acme workspace (bot)', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: ConnectionAuthDto, description: 'Replaces the auth; a secret left out is kept when the type stays the same' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectionAuthDto)
  auth?: ConnectionAuthDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replaces the settings' })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;
}

export class ListConnectionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only connections of this connector', example: 'slack' })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]{1,63}$/, { message: 'must be a connector id' })
  connector_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only connections of this customer' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;

  @ApiPropertyOptional({ enum: ['active', 'pending_authorization', 'needs_reauth'], description: 'Only connections in this state' })
  @IsOptional()
  @IsIn(['active', 'pending_authorization', 'needs_reauth'])
  status?: string;
}
