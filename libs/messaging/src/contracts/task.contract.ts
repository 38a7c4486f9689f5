import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, IsUUID, Length, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';

/** Subjects the task service answers or emits. */
export const TaskSubjects = {
  /** Work queue (JetStream): the run service asks for the human task of an approval or form step. */
  tasksCreate: 'task.tasks.create',
  /** Work queue (JetStream): a task's outcome (completed, expired) for the run service to resume the execution with. */
  outcomes: 'task.outcomes.deliver',
  taskCreated: 'task.task.created',
  taskAssigned: 'task.task.assigned',
  taskCompleted: 'task.task.completed',
  taskExpired: 'task.task.expired',
  /** Work queue (JetStream): the outcome of an agent run's approval task, for the AI runtime to resume the run with. */
  agentOutcomes: 'task.agent-outcomes.deliver',
  /** Request: how many tasks are pending in the caller's scope (portal dashboards). */
  tasksCountOpen: 'task.tasks.count_open',
} as const;

export const HUMAN_TASK_TYPES = ['approval', 'form'] as const;
export type HumanTaskType = (typeof HUMAN_TASK_TYPES)[number];
/** A task's decision, as `task.tasks.decision` stores it (its check constraint allows exactly these; apps/run/test/vocabularies.store.int-spec.ts). */
export const TASK_DECISIONS = ['approve', 'reject', 'submit'] as const;
export type TaskDecision = (typeof TASK_DECISIONS)[number];
/** A task's status, as `task.tasks.status` stores it (held to its check constraint by the same test). */
export const TASK_STATUSES = ['pending', 'completed', 'expired', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** `{ user_id }`, `{ team_id }` or `{ customer_id }`: exactly one is set. */
export class TaskAssignee {
  @IsOptional()
  @IsUUID()
  user_id?: string;

  @IsOptional()
  @IsUUID()
  team_id?: string;

  @IsOptional()
  @IsUUID()
  customer_id?: string;
}

export class TaskEscalation {
  @ValidateNested()
  @Type(() => TaskAssignee)
  escalate_to!: TaskAssignee;

  @IsInt()
  @Min(1)
  extend_seconds!: number;
}

/** `reject`, `fail` or `{ escalate_to, extend_seconds }`. */
export type TaskExpiryPolicy = 'reject' | 'fail' | TaskEscalation;

/** The agent run and tool call an approval task was made for (instead of an execution's step). */
export class AgentApprovalOrigin {
  @IsUUID()
  agentRunId!: string;

  @IsUUID()
  agentId!: string;

  /** The model's id of the tool call: unique per run, so asking twice makes one task. */
  @IsString()
  @Length(1, 200)
  toolCallId!: string;
}

/**
 * `task.tasks.create`: what the run service enqueues when an execution reaches an approval or
 * form step. The queue's message id and the task's unique key are the execution and step path,
 * so a step that runs again (a redelivered execution) never makes a second task. The AI runtime
 * enqueues one for an agent's tool call that needs approval: `agentRun` instead of the execution
 * fields, and `taskId` chosen by the runtime (it shows it while the run waits); unique per run
 * and tool call.
 */
export class CreateTaskItem {
  @ValidateIf((o: CreateTaskItem) => !o.agentRun)
  @IsUUID()
  executionId?: string;

  @ValidateIf((o: CreateTaskItem) => !o.agentRun)
  @IsUUID()
  workflowId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  workflowName?: string;

  @ValidateIf((o: CreateTaskItem) => !o.agentRun)
  @IsString()
  @Length(1, 200)
  stepId?: string;

  /** The step's path in the execution (`approve`, or `loop/2/approve` inside a loop). */
  @ValidateIf((o: CreateTaskItem) => !o.agentRun)
  @IsString()
  @Length(1, 1000)
  stepPath?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AgentApprovalOrigin)
  agentRun?: AgentApprovalOrigin;

  /** Agent approvals: the task's id, chosen by the AI runtime. */
  @IsOptional()
  @IsUUID()
  taskId?: string;

  @IsIn(HUMAN_TASK_TYPES)
  type!: HumanTaskType;

  @IsString()
  @Length(1, 500)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => TaskAssignee)
  assignee?: TaskAssignee | null;

  /** JSON Schema of the data to collect (forms), with UI hints. */
  @IsOptional()
  @IsObject()
  form?: Record<string, unknown> | null;

  /** The values the step chose to show the person. */
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown> | null;

  @IsOptional()
  @IsISO8601()
  dueAt?: string | null;

  /** Validated by the run service when the step starts (see the step's input rules). */
  @IsOptional()
  onExpiry?: TaskExpiryPolicy | null;
}

/** Who decided a task, what, and when: part of every task outcome. */
export class TaskDecisionFields {
  @IsOptional()
  @IsIn(TASK_DECISIONS)
  decision?: TaskDecision | null;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  completedBy?: string | null;

  @IsISO8601()
  completedAt!: string;
}

/** The outcome of a task, as the waiting step records it. */
export class TaskOutcomeItem extends TaskDecisionFields {
  @IsUUID()
  taskId!: string;

  @IsUUID()
  executionId!: string;

  @IsString()
  @Length(1, 1000)
  stepPath!: string;

  /** `completed`: a person decided; `expired`: the deadline passed (`reject` or `fail` policy). */
  @IsIn(['completed', 'expired'])
  status!: 'completed' | 'expired';

  /** Set when the step must fail (expiry with the `fail` policy). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure?: string | null;
}

/**
 * The outcome of an agent run's approval task, for the AI runtime: `completed` (approve or
 * reject, with the form's data: edited `arguments`, a `comment`), `expired` (the deadline passed)
 * or `cancelled`.
 */
export class AgentApprovalOutcomeItem extends TaskDecisionFields {
  @IsUUID()
  taskId!: string;

  @IsUUID()
  agentRunId!: string;

  @IsString()
  @Length(1, 200)
  toolCallId!: string;

  @IsIn(['completed', 'expired', 'cancelled'])
  status!: 'completed' | 'expired' | 'cancelled';
}

/** `task.task.created|assigned|completed|expired`: facts for triggers and notifications. */
export class TaskEvent {
  @IsUUID()
  taskId!: string;

  @IsIn(HUMAN_TASK_TYPES)
  type!: HumanTaskType;

  @IsIn(TASK_STATUSES)
  status!: TaskStatus;

  @IsString()
  title!: string;

  /** Null for an agent run's approval task (then `agentRunId` is set). */
  @IsOptional()
  @IsUUID()
  executionId!: string | null;

  @IsOptional()
  @IsUUID()
  workflowId!: string | null;

  @IsOptional()
  @IsString()
  stepPath!: string | null;

  @IsOptional()
  @IsUUID()
  agentRunId?: string | null;

  @IsOptional()
  assignee?: TaskAssignee | null;

  @IsOptional()
  @IsIn(TASK_DECISIONS)
  decision?: TaskDecision | null;

  @IsOptional()
  @IsString()
  completedBy?: string | null;

  @IsOptional()
  @IsISO8601()
  dueAt?: string | null;

  @IsISO8601()
  at!: string;
}

/** None: the task service is asked through work queues. */
/** `task.tasks.count_open`: pending tasks of the caller's tenant environment, of one customer when given. */
export class CountOpenTasksRequest {
  @IsOptional()
  @IsUUID()
  customerId?: string;
}

export interface TaskRequests {
  [TaskSubjects.tasksCountOpen]: { request: CountOpenTasksRequest; response: { open: number } };
}

export interface TaskEvents {
  [TaskSubjects.taskCreated]: TaskEvent;
  [TaskSubjects.taskAssigned]: TaskEvent;
  [TaskSubjects.taskCompleted]: TaskEvent;
  [TaskSubjects.taskExpired]: TaskEvent;
}

/** Task creation requests from the run service, consumed by every task replica. */
export const TASK_CREATE_QUEUE: WorkQueueSpec = {
  stream: 'TASK_CREATE',
  subjects: [TaskSubjects.tasksCreate],
  consumer: 'task-creators',
  maxDeliver: 50,
  ackWaitMs: 30_000,
  deadLetterSubject: 'task.tasks.dead',
  payload: CreateTaskItem,
};

/** Task outcomes for the run service: consumed once a run replica is up, however long after the decision. */
export const TASK_OUTCOMES_QUEUE: WorkQueueSpec = {
  stream: 'TASK_OUTCOMES',
  subjects: [TaskSubjects.outcomes],
  consumer: 'run-task-outcomes',
  maxDeliver: 100,
  ackWaitMs: 30_000,
  deadLetterSubject: 'task.outcomes.dead',
  payload: TaskOutcomeItem,
};

/** Outcomes of agent runs' approval tasks, consumed by the AI runtime (any replica, however long after the decision). */
export const AGENT_APPROVAL_OUTCOMES_QUEUE: WorkQueueSpec = {
  stream: 'TASK_AGENT_OUTCOMES',
  subjects: [TaskSubjects.agentOutcomes],
  consumer: 'ai-agent-approvals',
  maxDeliver: 100,
  ackWaitMs: 30_000,
  deadLetterSubject: 'task.agent-outcomes.dead',
  payload: AgentApprovalOutcomeItem,
};
