/** Subjects the connection service answers or emits. Added here as its features are built. */
export const ConnectionSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type ConnectionRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type ConnectionEvents = Record<never, never>;
