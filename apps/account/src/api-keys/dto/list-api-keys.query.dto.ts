import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListApiKeysQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  data_plane_id?: string;

  @ApiPropertyOptional({ enum: ['active', 'revoked', 'expired', 'rotated'] })
  @IsOptional()
  @IsIn(['active', 'revoked', 'expired', 'rotated'])
  status?: string;

  @ApiPropertyOptional({ enum: ['tenant', 'customer'] })
  @IsOptional()
  @IsIn(['tenant', 'customer'])
  type?: string;
}
