import { IsBoolean, IsObject, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';

/** Subjects the task service answers or emits. */
export const TaskSubjects = {
  /** Event: a human task (an approval step's) was completed; the run service resumes the execution. */
  taskCompleted: 'task.task.completed',
} as const;

export class TaskCompletedEvent {
  @IsUUID()
  executionId!: string;

  /** The approval step's path in the execution (`approve`, or `loop/2/approve` inside a loop). */
  @IsString()
  @Length(1, 1000)
  stepPath!: string;

  @IsBoolean()
  approved!: boolean;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  completedBy?: string;
}

/** None yet: added here as the service's features are built. */
export type TaskRequests = Record<never, never>;

export interface TaskEvents {
  [TaskSubjects.taskCompleted]: TaskCompletedEvent;
}
