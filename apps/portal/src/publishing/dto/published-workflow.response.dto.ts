import { ApiProperty } from '@nestjs/swagger';

export interface PublishedWorkflowResponse {
  id: string;
  workflow_id: string;
  visibility: 'all_customers' | { customer_ids: string[] };
  title: string;
  description: string | null;
  input_form: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export const PUBLISHED_EXAMPLE: PublishedWorkflowResponse = {
  id: '0194f1c2-0000-7000-8000-00000000a001',
  workflow_id: '0194f1c2-0000-7000-8000-00000000f001',
  visibility: 'all_customers',
  title: 'Request a quote',
  description: 'Tell us what you need; we answer within a day.',
  input_form: { type: 'object', required: ['email'], properties: { email: { type: 'string', title: 'E-mail' } } },
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

export class PublishedWorkflowResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  workflow_id!: string;

  @ApiProperty({
    oneOf: [
      { type: 'string', enum: ['all_customers'] },
      { type: 'object', properties: { customer_ids: { type: 'array', items: { type: 'string', format: 'uuid' } } } },
    ],
  })
  visibility!: PublishedWorkflowResponse['visibility'];

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the form' })
  input_form!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class PortalRunResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-0000-7000-8000-00000000e001' })
  run_id!: string;

  @ApiProperty({ example: 'queued' })
  status!: string;

  @ApiProperty({ format: 'uuid', description: 'The customer whose scope the run has' })
  customer_id!: string;
}
