/** Subjects the notification service answers or emits. Added here as its features are built. */
export const NotificationSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type NotificationRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type NotificationEvents = Record<never, never>;
