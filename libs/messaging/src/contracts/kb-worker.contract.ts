/** Subjects the kb-worker service answers or emits. Added here as its features are built. */
export const KbWorkerSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface KbWorkerRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface KbWorkerEvents {}
