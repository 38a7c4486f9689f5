/** Subjects the ai-runtime service answers or emits. Added here as its features are built. */
export const AiRuntimeSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AiRuntimeRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AiRuntimeEvents {}
