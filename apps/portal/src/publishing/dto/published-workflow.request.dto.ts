import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsObject, IsOptional, IsString, IsUUID, Length, ValidateIf } from 'class-validator';
import { PageQueryDto } from '@platform/service';

const VISIBILITY_SCHEMA = {
  oneOf: [
    { type: 'string', enum: ['all_customers'] },
    { type: 'object', required: ['customer_ids'], properties: { customer_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 500 } } },
  ],
  description: '`"all_customers"`, or `{ "customer_ids": [...] }`: the customers who may see and run it',
};

export type VisibilityInput = 'all_customers' | { customer_ids: string[] };

export class PublishWorkflowRequestDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-0000-7000-8000-00000000f001', description: 'A workflow of the tenant (run service)' })
  @IsUUID()
  workflow_id!: string;

  @ApiProperty({ ...VISIBILITY_SCHEMA, example: 'all_customers' })
  @Allow()
  visibility!: VisibilityInput;

  @ApiProperty({ example: 'Request a quote', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  title!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, example: 'Tell us what you need; we answer within a day.' })
  @ValidateIf((o: PublishWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "JSON Schema (type object) of the form customers fill in; default: the workflow's input_schema",
    example: { type: 'object', required: ['email'], properties: { email: { type: 'string', title: 'E-mail' }, quantity: { type: 'integer', minimum: 1 } } },
  })
  @IsOptional()
  @IsObject()
  input_form?: Record<string, unknown>;
}

export class UpdatePublishedWorkflowRequestDto {
  @ApiPropertyOptional({ ...VISIBILITY_SCHEMA, example: { customer_ids: ['0194f1c2-0000-7000-8000-0000000000c1'] } })
  @Allow()
  visibility?: VisibilityInput;

  @ApiPropertyOptional({ example: 'Request a quote', minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  title?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'null clears it' })
  @ValidateIf((o: UpdatePublishedWorkflowRequestDto) => o.description !== undefined && o.description !== null)
  @IsString()
  @Length(0, 2000)
  description?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replaces the form (JSON Schema, type object)' })
  @IsOptional()
  @IsObject()
  input_form?: Record<string, unknown>;
}

export class ListPublishedWorkflowsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the publications of this workflow' })
  @IsOptional()
  @IsUUID()
  workflow_id?: string;
}

export class RunPublishedWorkflowRequestDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { email: 'ana@example.com', quantity: 3 },
    description: 'The run input (default {})',
  })
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'For a tenant key without X-Scope-Key: the customer the run is for. A customer key (or X-Scope-Key) runs as its own customer.',
  })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}
