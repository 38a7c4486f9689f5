/** Subjects the webhook service answers or emits. Added here as its features are built. */
export const WebhookSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type WebhookRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type WebhookEvents = Record<never, never>;
