/** Subjects the trigger service answers or emits. Added here as its features are built. */
export const TriggerSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type TriggerRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type TriggerEvents = Record<never, never>;
