/** Subjects the connection service answers or emits. Added here as its features are built. */
export const ConnectionSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ConnectionRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ConnectionEvents {}
