import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { MaxItems } from '@platform/service';
import { WIDGET_TYPES, type WidgetType } from '../widgets.js';

export class WidgetRequestDto {
  @ApiProperty({ enum: WIDGET_TYPES, example: 'executions_per_day' })
  @IsIn(WIDGET_TYPES)
  type!: WidgetType;

  @ApiPropertyOptional({ example: 'Runs this month', maxLength: 200, description: 'Default: a title for the type' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  title?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, default: 5, description: 'Rows of the slowest and most failing lists' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

const WIDGETS_EXAMPLE = [{ type: 'executions_per_day' }, { type: 'failure_rate' }, { type: 'slowest_workflows', limit: 3 }, { type: 'open_tasks' }];

export class CreateDashboardRequestDto {
  @ApiProperty({ example: 'Operations', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @ValidateIf((o: CreateDashboardRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiProperty({ type: [WidgetRequestDto], minItems: 1, example: WIDGETS_EXAMPLE })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(20)
  @ValidateNested({ each: true })
  @Type(() => WidgetRequestDto)
  widgets!: WidgetRequestDto[];
}

export class UpdateDashboardRequestDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Operations' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'null clears it' })
  @ValidateIf((o: UpdateDashboardRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiPropertyOptional({ type: [WidgetRequestDto], minItems: 1, description: 'Replaces the widgets' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(20)
  @ValidateNested({ each: true })
  @Type(() => WidgetRequestDto)
  widgets?: WidgetRequestDto[];
}

export class DashboardDataQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the period (inclusive); default 30 days before `to`' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the period (exclusive); default now' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this customer's data (a customer key always sees only its own)" })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}
