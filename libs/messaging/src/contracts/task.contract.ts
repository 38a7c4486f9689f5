/** Subjects the task service answers or emits. */
export const TaskSubjects = {
  /** Event: a human task (an approval step's) was completed; the run service resumes the execution. */
  taskCompleted: 'task.task.completed',
} as const;

export interface TaskCompletedEvent {
  executionId: string;
  /** The approval step's path in the execution (`approve`, or `loop/2/approve` inside a loop). */
  stepPath: string;
  approved: boolean;
  data?: Record<string, unknown>;
  completedBy?: string;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TaskRequests {}

export interface TaskEvents {
  [TaskSubjects.taskCompleted]: TaskCompletedEvent;
}
