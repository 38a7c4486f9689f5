import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsDateString, IsIn, IsOptional, IsString, IsUUID, Length, ValidateIf } from 'class-validator';
import { MaxItems } from '@platform/service';
import { SCOPE_CATALOGUE } from '@platform/auth';

export class CreateApiKeyRequestDto {
  @ApiProperty({ example: 'ci-deployer', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiProperty({
    enum: ['tenant', 'customer'],
    example: 'tenant',
    description: 'A tenant key reaches the whole tenant; a customer key one customer (execution scope).',
  })
  @IsIn(['tenant', 'customer'])
  type!: 'tenant' | 'customer';

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    example: '0194f1c2-0000-7000-8000-0000000000c1',
    description: 'Required when type is customer.',
  })
  @ValidateIf((o: CreateApiKeyRequestDto) => o.customer_id !== undefined && o.customer_id !== null)
  @IsUUID()
  customer_id?: string | null;

  @ApiProperty({ example: ['automations:run', 'data:read'], enum: Object.keys(SCOPE_CATALOGUE), isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(64)
  @IsString({ each: true })
  scopes!: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2027-01-01T00:00:00Z',
    description: 'The key stops working at this moment (null or absent: never).',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  expires_at?: string | null;
}

export class CreateAccountApiKeyRequestDto extends CreateApiKeyRequestDto {
  @ApiProperty({
    format: 'uuid',
    example: '0194f1c2-0000-7000-8000-000000000001',
    description: 'The data plane (environment) the key belongs to: production keys are live, sandbox keys test.',
  })
  @IsUUID()
  data_plane_id!: string;
}
