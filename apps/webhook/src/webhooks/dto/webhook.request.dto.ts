import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { IsNestedObject } from '@platform/service';

export const VERIFICATION_TYPES = ['hmac', 'token', 'none'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];
export const RESPONSE_MODES = ['async', 'sync'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export class VerificationDto {
  @ApiProperty({ enum: VERIFICATION_TYPES, example: 'hmac', description: 'hmac: Standard Webhooks signatures; token: a static secret in a header; none' })
  @IsIn(VERIFICATION_TYPES)
  type!: VerificationType;

  @ApiPropertyOptional({ example: 'X-Webhook-Token', description: 'The header carrying the token (type token only)' })
  @ValidateIf((o: VerificationDto) => o.type === 'token' || o.header !== undefined)
  @IsString()
  @Matches(/^[A-Za-z0-9-]{1,100}$/, { message: 'must be an HTTP header name' })
  header?: string;
}

export class ResponseDto {
  @ApiProperty({ enum: RESPONSE_MODES, example: 'async' })
  @IsIn(RESPONSE_MODES)
  mode!: ResponseMode;

  @ApiPropertyOptional({ example: 10000, minimum: 100, maximum: 60000, description: 'sync only: how long to wait for the run (10000 when left out)' })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60_000)
  timeout_ms?: number;
}

export class CreateWebhookRequestDto {
  @ApiProperty({ example: 'stripe-events' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    format: 'uuid',
    example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
    description: "The workflow each accepted delivery runs: the caller's (an unknown or another tenant's id is a 400 naming workflow_id)",
  })
  @IsUUID()
  workflow_id!: string;

  @ApiProperty({
    type: VerificationDto,
    example: { type: 'hmac' },
    description: 'Required: how deliveries are checked (there is no default; `{ "type": "none" }` accepts anything)',
  })
  @IsNestedObject(() => VerificationDto)
  verification!: VerificationDto;

  @ApiPropertyOptional({ type: ResponseDto, description: 'Default { mode: "async" }', example: { mode: 'async' } })
  @IsOptional()
  @IsNestedObject(() => ResponseDto)
  response?: ResponseDto;

  @ApiPropertyOptional({ default: true, example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateWebhookRequestDto {
  @ApiPropertyOptional({ example: 'stripe-events' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;

  @ApiPropertyOptional({
    type: VerificationDto,
    description: 'Changing the type to hmac or token makes a new secret, returned once',
    example: { type: 'token', header: 'X-Webhook-Token' },
  })
  @IsOptional()
  @IsNestedObject(() => VerificationDto)
  verification?: VerificationDto;

  @ApiPropertyOptional({ type: ResponseDto, example: { mode: 'sync', timeout_ms: 10000 } })
  @IsOptional()
  @IsNestedObject(() => ResponseDto)
  response?: ResponseDto;

  @ApiPropertyOptional({ example: false, description: 'A disabled webhook answers 404 to deliveries' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
