/** Subjects the task service answers or emits. Added here as its features are built. */
export const TaskSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TaskRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TaskEvents {}
