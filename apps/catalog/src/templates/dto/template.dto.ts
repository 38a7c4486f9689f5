import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '@platform/service';

export class ListTemplatesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Words matched in id, name and description', example: 'slack' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ description: 'Only templates of this category', example: 'communication' })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]*$/, { message: 'must be a category id such as communication' })
  category?: string;

  @ApiPropertyOptional({ description: 'Only templates using this connector', example: 'github' })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]{1,63}$/, { message: 'must be a connector id' })
  connector?: string;
}

export class InstantiateTemplateRequestDto {
  @ApiPropertyOptional({ description: "The workflow's name (default: the template's)", example: 'New issues to #eng' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', format: 'uuid' },
    description: "A connection per connector (connector id → connection id). A connector left out is resolved per run to the customer's own connection.",
    example: { github: '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e' },
  })
  @IsOptional()
  @IsObject()
  connections?: Record<string, string>;
}

export class TemplateSummaryDto {
  @ApiProperty({ example: 'github-issue-to-slack' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String] }) categories!: string[];
  @ApiProperty({ type: [String], example: ['github', 'slack'] }) connectors!: string[];
  @ApiProperty({ example: '1.0.0' }) version!: string;
}

export class TemplateResponseDto extends TemplateSummaryDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The workflow definition it creates: description, input_schema, steps' })
  workflow!: Record<string, unknown>;
}
