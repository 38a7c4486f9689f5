/** Subjects the subscription service answers or emits. Added here as its features are built. */
export const SubscriptionSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SubscriptionRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SubscriptionEvents {}
