import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class CreateCustomerRequestDto {
  @ApiProperty({ example: 'Globex Corporation', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'crm-4711', description: 'Your own identifier, unique per data plane' })
  @ValidateIf((o: CreateCustomerRequestDto) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @ApiPropertyOptional({ example: { plan: 'gold' } })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class UpdateCustomerRequestDto {
  @ApiPropertyOptional({ example: 'Globex Corp.' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ example: 'crm-4711' })
  @ValidateIf((o: UpdateCustomerRequestDto) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @ApiPropertyOptional({ example: { plan: 'platinum' } })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ListCustomersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'crm-4711' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  external_id?: string;
}
