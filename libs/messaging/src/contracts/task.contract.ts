import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, IsUUID, Length, MaxLength, Min, ValidateNested } from 'class-validator';
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
  /** Request: how many tasks are pending in the caller's scope (portal dashboards). */
  tasksCountOpen: 'task.tasks.count_open',
} as const;

export const HUMAN_TASK_TYPES = ['approval', 'form'] as const;
export type HumanTaskType = (typeof HUMAN_TASK_TYPES)[number];
export const TASK_DECISIONS = ['approve', 'reject', 'submit'] as const;
export type TaskDecision = (typeof TASK_DECISIONS)[number];

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

/**
 * `task.tasks.create`: what the run service enqueues when an execution reaches an approval or
 * form step. The queue's message id and the task's unique key are the execution and step path,
 * so a step that runs again (a redelivered execution) never makes a second task.
 */
export class CreateTaskItem {
  @IsUUID()
  executionId!: string;

  @IsUUID()
  workflowId!: string;

  @IsString()
  @MaxLength(500)
  workflowName!: string;

  @IsString()
  @Length(1, 200)
  stepId!: string;

  /** The step's path in the execution (`approve`, or `loop/2/approve` inside a loop). */
  @IsString()
  @Length(1, 1000)
  stepPath!: string;

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

/** The outcome of a task, as the waiting step records it. */
export class TaskOutcomeItem {
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

  /** Set when the step must fail (expiry with the `fail` policy). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure?: string | null;
}

/** `task.task.created|assigned|completed|expired`: facts for triggers and notifications. */
export class TaskEvent {
  @IsUUID()
  taskId!: string;

  @IsIn(HUMAN_TASK_TYPES)
  type!: HumanTaskType;

  @IsString()
  status!: string;

  @IsString()
  title!: string;

  @IsUUID()
  executionId!: string;

  @IsUUID()
  workflowId!: string;

  @IsString()
  stepPath!: string;

  @IsOptional()
  assignee?: TaskAssignee | null;

  @IsOptional()
  @IsString()
  decision?: string | null;

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
