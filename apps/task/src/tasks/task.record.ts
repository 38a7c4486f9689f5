import type { HumanTaskType, TaskAssignee, TaskDecision, TaskEvent, TaskExpiryPolicy, TaskStatus } from '@platform/messaging';

export type AssigneeType = 'user' | 'team' | 'customer';

export interface TaskRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  type: HumanTaskType;
  status: TaskStatus;
  title: string;
  description: string | null;
  execution_id: string | null;
  workflow_id: string | null;
  workflow_name: string;
  step_id: string | null;
  step_path: string | null;
  agent_run_id: string | null;
  agent_id: string | null;
  tool_call_id: string | null;
  assignee_type: AssigneeType | null;
  assignee_id: string | null;
  form: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  due_at: Date | null;
  on_expiry: TaskExpiryPolicy | null;
  escalated: boolean;
  decision: TaskDecision | null;
  data: Record<string, unknown> | null;
  completed_by: string | null;
  completed_at: Date | null;
  outcome_pending: boolean;
  /** Publishes of the outcome the reconciler tried and that failed; the last one's error. */
  outcome_attempts: number;
  outcome_error: string | null;
  /** Set when the outbox gave the outcome up (refused for good, or too old): outcome_pending is then false. */
  outcome_failed_at: Date | null;
  checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What made the task: an execution's approval or form step, or an AI agent's tool call. */
export type TaskOrigin =
  | { type: 'execution'; execution_id: string; workflow_id: string; step_path: string }
  | { type: 'agent_run'; agent_run_id: string; agent_id: string; tool_call_id: string };

export interface TaskResponse {
  id: string;
  type: HumanTaskType;
  status: TaskStatus;
  title: string;
  description: string | null;
  origin: TaskOrigin;
  workflow_id: string | null;
  workflow_name: string;
  execution_id: string | null;
  step_id: string | null;
  step_path: string | null;
  assignee: TaskAssignee | null;
  customer_id: string | null;
  form: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  decisions: TaskDecision[];
  due_at: string | null;
  on_expiry: TaskExpiryPolicy | null;
  escalated: boolean;
  decision: TaskDecision | null;
  data: Record<string, unknown> | null;
  completed_by: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The decisions a task takes: approve or reject for an approval, submit or reject for a form. */
export function decisionsOf(type: HumanTaskType): TaskDecision[] {
  return type === 'approval' ? ['approve', 'reject'] : ['submit', 'reject'];
}

export function assigneeOf(row: Pick<TaskRow, 'assignee_type' | 'assignee_id'>): TaskAssignee | null {
  if (!row.assignee_type || !row.assignee_id) return null;
  return { [`${row.assignee_type}_id`]: row.assignee_id };
}

/** `{ user_id }` → ['user', id]; null for none. */
export function assigneeColumns(a: TaskAssignee | null | undefined): { type: AssigneeType; id: string } | null {
  if (a?.user_id) return { type: 'user', id: a.user_id };
  if (a?.team_id) return { type: 'team', id: a.team_id };
  if (a?.customer_id) return { type: 'customer', id: a.customer_id };
  return null;
}

export function originOf(row: TaskRow): TaskOrigin {
  return row.agent_run_id
    ? { type: 'agent_run', agent_run_id: row.agent_run_id, agent_id: row.agent_id!, tool_call_id: row.tool_call_id! }
    : { type: 'execution', execution_id: row.execution_id!, workflow_id: row.workflow_id!, step_path: row.step_path! };
}

export function toTaskResponse(row: TaskRow): TaskResponse {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    title: row.title,
    description: row.description,
    origin: originOf(row),
    workflow_id: row.workflow_id,
    workflow_name: row.workflow_name,
    execution_id: row.execution_id,
    step_id: row.step_id,
    step_path: row.step_path,
    assignee: assigneeOf(row),
    customer_id: row.scope_id,
    form: row.form,
    context: row.context,
    decisions: decisionsOf(row.type),
    due_at: iso(row.due_at),
    on_expiry: row.on_expiry,
    escalated: row.escalated,
    decision: row.decision,
    data: row.data,
    completed_by: row.completed_by,
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toTaskEvent(row: TaskRow): TaskEvent {
  return {
    taskId: row.id,
    type: row.type,
    status: row.status,
    title: row.title,
    executionId: row.execution_id,
    workflowId: row.workflow_id,
    stepPath: row.step_path,
    agentRunId: row.agent_run_id,
    assignee: assigneeOf(row),
    decision: row.decision,
    completedBy: row.completed_by,
    dueAt: iso(row.due_at),
    at: new Date().toISOString(),
  };
}
