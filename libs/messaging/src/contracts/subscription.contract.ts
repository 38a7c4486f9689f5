/** Subjects the subscription service answers or emits. Added here as its features are built. */
export const SubscriptionSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type SubscriptionRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type SubscriptionEvents = Record<never, never>;
