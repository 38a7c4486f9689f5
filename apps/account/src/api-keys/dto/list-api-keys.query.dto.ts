import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListApiKeysQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-0000-7000-8000-000000000001', description: 'Keys of this data plane only' })
  @IsOptional()
  @IsUUID()
  data_plane_id?: string;

  @ApiPropertyOptional({ enum: ['active', 'revoked', 'expired', 'rotated'], example: 'active', description: 'Keys in this status only' })
  @IsOptional()
  @IsIn(['active', 'revoked', 'expired', 'rotated'])
  status?: string;

  @ApiPropertyOptional({ enum: ['tenant', 'customer'], example: 'tenant', description: 'Keys of this type only' })
  @IsOptional()
  @IsIn(['tenant', 'customer'])
  type?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    example: '0194f1c2-0000-7000-8000-0000000000c1',
    description: "The keys of this customer only (a customer's keys are listed with it)",
  })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}
