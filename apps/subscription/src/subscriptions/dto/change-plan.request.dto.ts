import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class ChangePlanRequestDto {
  @ApiProperty({ example: 'pro', description: 'Code of the plan to move to (see GET /subscription/plans); effective at once' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,39}$/, { message: 'plan must be a plan code (a-z, 0-9, _ and -)' })
  plan!: string;
}
