/** Subjects the ai-runtime service answers or emits. Added here as its features are built. */
export const AiRuntimeSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type AiRuntimeRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type AiRuntimeEvents = Record<never, never>;
