import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { HUMAN_TASK_TYPES, TASK_DECISIONS, TASK_STATUSES } from '@platform/messaging';
import { ANY_JSON_SCHEMA } from '@platform/service';
import type { TaskResponse } from '../task.record.js';

const TASK_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10';
const FORM = {
  type: 'object',
  required: ['amount'],
  properties: { amount: { type: 'number', minimum: 0, title: 'Amount (EUR)' }, comment: { type: 'string', 'ui:widget': 'textarea' } },
};

export const TASK_EXAMPLE: TaskResponse = {
  id: TASK_ID,
  type: 'approval',
  status: 'pending',
  title: 'Approve the refund of order 4711?',
  description: 'The customer asks for a full refund.',
  origin: {
    type: 'execution',
    execution_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03',
    workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
    step_path: 'approve',
  },
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  workflow_name: 'refunds',
  execution_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03',
  step_id: 'approve',
  step_path: 'approve',
  assignee: { team_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02' },
  customer_id: null,
  form: FORM,
  context: { order: 4711, amount: 1200 },
  decisions: ['approve', 'reject'],
  due_at: '2026-11-24T10:00:00.000Z',
  on_expiry: 'reject',
  escalated: false,
  decision: null,
  data: null,
  completed_by: null,
  completed_at: null,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};

export const COMPLETED_TASK_EXAMPLE: TaskResponse = {
  ...TASK_EXAMPLE,
  status: 'completed',
  decision: 'approve',
  data: { amount: 1200, comment: 'Within budget' },
  completed_by: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
  completed_at: '2026-11-23T11:00:00.000Z',
  updated_at: '2026-11-23T11:00:00.000Z',
};

/** An AI agent's tool call waiting for approval (see docs/ai.md): no workflow, the call in `context`, editable arguments in the form. */
export const AGENT_TASK_EXAMPLE: TaskResponse = {
  ...TASK_EXAMPLE,
  title: 'Approve refund_order for the agent Support assistant',
  description: 'Refund an order in full',
  origin: { type: 'agent_run', agent_run_id: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f', agent_id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f', tool_call_id: 'call_1' },
  workflow_id: null,
  workflow_name: '',
  execution_id: null,
  step_id: null,
  step_path: null,
  assignee: null,
  form: {
    type: 'object',
    properties: {
      arguments: {
        type: 'object',
        properties: { order: { type: 'string' } },
        description: 'The arguments the tool is called with (change them to correct the call)',
      },
      comment: { type: 'string', 'ui:widget': 'textarea' },
    },
  },
  context: {
    agent_id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f',
    agent_name: 'Support assistant',
    agent_run_id: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f',
    tool: 'refund_order',
    tool_type: 'workflow',
    arguments: { order: 'A-17' },
  },
  due_at: null,
  on_expiry: null,
};

/** What made the task: one of the two sets of ids, by `type`. */
export class TaskOriginDto {
  @ApiProperty({
    enum: ['execution', 'agent_run'],
    example: 'execution',
    description: '`execution`: an approval or form step; `agent_run`: an AI agent tool call that needs approval',
  })
  type!: string;

  @ApiPropertyOptional({ format: 'uuid', example: TASK_EXAMPLE.execution_id, description: 'execution: the execution waiting on the task' })
  execution_id?: string;

  @ApiPropertyOptional({ format: 'uuid', example: TASK_EXAMPLE.workflow_id, description: "execution: the execution's workflow" })
  workflow_id?: string;

  @ApiPropertyOptional({ example: 'approve', description: 'execution: the step path' })
  step_path?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f', description: 'agent_run: the waiting agent run' })
  agent_run_id?: string;

  @ApiPropertyOptional({ format: 'uuid', example: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f', description: 'agent_run: its agent' })
  agent_id?: string;

  @ApiPropertyOptional({ example: 'call_1', description: "agent_run: the model's id of the tool call" })
  tool_call_id?: string;
}

const ASSIGNEE_SCHEMA = {
  type: 'object',
  nullable: true,
  description: 'Exactly one of user_id, team_id, customer_id',
  properties: { user_id: { type: 'string', format: 'uuid' }, team_id: { type: 'string', format: 'uuid' }, customer_id: { type: 'string', format: 'uuid' } },
} as const;

const EXPIRY_SCHEMA = {
  description: 'What happens at the deadline: "reject", "fail", or { escalate_to, extend_seconds } (once; the next deadline rejects); null without a deadline',
  anyOf: [
    { type: 'string', enum: ['reject', 'fail'], nullable: true },
    {
      type: 'object',
      nullable: true,
      properties: { escalate_to: ASSIGNEE_SCHEMA, extend_seconds: { type: 'integer', minimum: 1 } },
      required: ['escalate_to', 'extend_seconds'],
    },
  ],
};

export class TaskResponseDto {
  @ApiProperty({ format: 'uuid', example: TASK_ID })
  id!: string;

  @ApiProperty({ enum: HUMAN_TASK_TYPES, example: 'approval', description: 'The step type that made the task' })
  type!: string;

  @ApiProperty({ enum: TASK_STATUSES, example: 'pending', description: 'pending, completed, expired (deadline passed) or cancelled (its execution ended)' })
  status!: string;

  @ApiProperty({ example: TASK_EXAMPLE.title })
  title!: string;

  @ApiProperty({ type: String, nullable: true, example: TASK_EXAMPLE.description })
  description!: string | null;

  @ApiProperty({
    type: TaskOriginDto,
    example: TASK_EXAMPLE.origin,
    description: 'What made the task: an execution step (`execution`), or an AI agent tool call that needs approval (`agent_run`)',
  })
  origin!: TaskOriginDto;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: TASK_EXAMPLE.workflow_id, description: 'null for an agent run approval' })
  workflow_id!: string | null;

  @ApiProperty({ example: 'refunds', description: 'The name of the workflow when the task was made (empty for an agent run approval)' })
  workflow_name!: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: TASK_EXAMPLE.execution_id,
    description: 'The execution waiting on the task (null for an agent run approval)',
  })
  execution_id!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'approve', description: 'The id of the approval or form step (null for an agent run approval)' })
  step_id!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'approve',
    description: 'The step path in the execution (`loop/2/approve` inside a loop; null for an agent run approval)',
  })
  step_path!: string | null;

  @ApiProperty({ ...ASSIGNEE_SCHEMA, example: TASK_EXAMPLE.assignee })
  assignee!: Record<string, string> | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The customer (execution scope) the task belongs to' })
  customer_id!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: FORM, description: 'JSON Schema of the data to collect, with UI hints' })
  form!: Record<string, unknown> | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: TASK_EXAMPLE.context, description: 'The values the step chose to show' })
  context!: Record<string, unknown> | null;

  @ApiProperty({ enum: TASK_DECISIONS, isArray: true, example: ['approve', 'reject'], description: 'The decisions this task takes' })
  decisions!: string[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: TASK_EXAMPLE.due_at })
  due_at!: string | null;

  @ApiProperty({ ...EXPIRY_SCHEMA, example: 'reject' })
  on_expiry!: unknown;

  @ApiProperty({ example: false, description: 'Whether the deadline already escalated the task (reassigned and extended)' })
  escalated!: boolean;

  @ApiProperty({
    type: String,
    // null is listed: a validator of OpenAPI 3.0 examples reads `nullable` with `enum` that way.
    enum: [...TASK_DECISIONS, null] as unknown as string[],
    nullable: true,
    example: 'approve',
    description: 'The decision made, null while pending (reject for a task expired with the reject policy)',
  })
  decision!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null, description: 'The data submitted with the decision' })
  data!: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Who decided: a user id, `api_key:<key id>` or `link:<link id>`' })
  completed_by!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  completed_at!: string | null;

  @ApiProperty({ format: 'date-time', example: TASK_EXAMPLE.created_at })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: TASK_EXAMPLE.updated_at })
  updated_at!: string;
}

export interface TaskLinkResponse {
  url: string;
  token: string;
  task_id: string;
  decisions: string[];
  expires_at: string;
}

export const LINK_EXAMPLE: TaskLinkResponse = {
  url: '/tasks/public/eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA',
  token: 'eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA',
  task_id: TASK_ID,
  decisions: ['approve', 'reject'],
  expires_at: '2026-11-30T10:00:00.000Z',
};

export class TaskLinkResponseDto {
  @ApiProperty({ example: LINK_EXAMPLE.url, description: 'The public path on the gateway: GET shows the task, POST decides it once' })
  url!: string;

  @ApiProperty({ example: LINK_EXAMPLE.token, description: 'The signed token in the url' })
  token!: string;

  @ApiProperty({ format: 'uuid', example: TASK_ID })
  task_id!: string;

  @ApiProperty({ enum: TASK_DECISIONS, isArray: true, example: LINK_EXAMPLE.decisions, description: 'The decisions the link may make' })
  decisions!: string[];

  @ApiProperty({ format: 'date-time', example: LINK_EXAMPLE.expires_at })
  expires_at!: string;
}

export interface PublicTaskResponse {
  task_id: string;
  type: string;
  title: string;
  description: string | null;
  form: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  decisions: string[];
  expires_at: string;
}

export const PUBLIC_TASK_EXAMPLE: PublicTaskResponse = {
  task_id: TASK_ID,
  type: 'approval',
  title: TASK_EXAMPLE.title,
  description: TASK_EXAMPLE.description,
  form: FORM,
  context: TASK_EXAMPLE.context,
  decisions: ['approve', 'reject'],
  expires_at: LINK_EXAMPLE.expires_at,
};

export class PublicTaskResponseDto {
  @ApiProperty({ format: 'uuid', example: TASK_ID })
  task_id!: string;

  @ApiProperty({ enum: HUMAN_TASK_TYPES, example: 'approval' })
  type!: string;

  @ApiProperty({ example: TASK_EXAMPLE.title })
  title!: string;

  @ApiProperty({ type: String, nullable: true, example: TASK_EXAMPLE.description })
  description!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: FORM, description: 'JSON Schema of the data to collect' })
  form!: Record<string, unknown> | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: TASK_EXAMPLE.context, description: 'The values the step chose to show' })
  context!: Record<string, unknown> | null;

  @ApiProperty({ enum: TASK_DECISIONS, isArray: true, example: ['approve', 'reject'], description: 'The decisions this link may make' })
  decisions!: string[];

  @ApiProperty({ format: 'date-time', example: LINK_EXAMPLE.expires_at, description: 'When the link stops working' })
  expires_at!: string;
}

export class PublicTaskDecidedResponseDto {
  @ApiProperty({ format: 'uuid', example: TASK_ID })
  task_id!: string;

  @ApiProperty({ enum: ['completed'], example: 'completed' })
  status!: string;

  @ApiProperty({ enum: TASK_DECISIONS, example: 'approve' })
  decision!: string;

  @ApiPropertyOptional({ ...ANY_JSON_SCHEMA, example: { comment: 'ok' } })
  data?: unknown;
}
