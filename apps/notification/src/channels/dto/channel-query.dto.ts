import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '@platform/service';
import { CHANNEL_KINDS, type ChannelKind } from './channel.request.dto.js';

export class ListChannelsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CHANNEL_KINDS, example: 'slack', description: 'Only channels of this kind' })
  @IsOptional()
  @IsIn(CHANNEL_KINDS)
  kind?: ChannelKind;
}
