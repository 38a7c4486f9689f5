import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { CUSTOMER_STATUSES, type CustomerStatus } from '@platform/messaging';
import { PageQueryDto } from '@platform/service';

export class CreateCustomerRequestDto {
  @ApiProperty({ example: 'Globex Corporation', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 200,
    example: 'crm-4711',
    description: 'Your own identifier, unique per data plane',
  })
  @ValidateIf((o: CreateCustomerRequestDto) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { plan: 'gold' }, description: 'Free-form JSON object' })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class UpdateCustomerRequestDto {
  @ApiPropertyOptional({ example: 'Globex Corp.', minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 200, example: 'crm-4711', description: 'null clears it' })
  @ValidateIf((o: UpdateCustomerRequestDto) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { plan: 'platinum' }, description: 'Replaces the stored metadata' })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: CUSTOMER_STATUSES,
    example: 'disabled',
    description: "disabled: the customer's keys are refused at once, its scope cannot be selected, its embed tokens stop working; active again restores them",
  })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  status?: CustomerStatus;
}

export class ListCustomersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'crm-4711', description: 'The customer with this external id' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  external_id?: string;

  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES, description: 'Only active or only disabled customers' })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES)
  status?: CustomerStatus;

  @ApiPropertyOptional({ example: 'glob', description: 'Customers whose name contains this text (case-insensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}
