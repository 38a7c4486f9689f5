/** Subjects the portal service answers or emits. Added here as its features are built. */
export const PortalSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type PortalRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type PortalEvents = Record<never, never>;
