/** Subjects the kb-worker service answers or emits. Added here as its features are built. */
export const KbWorkerSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type KbWorkerRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type KbWorkerEvents = Record<never, never>;
