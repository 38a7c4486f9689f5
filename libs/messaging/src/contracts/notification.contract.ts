/** Subjects the notification service answers or emits. Added here as its features are built. */
export const NotificationSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NotificationRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NotificationEvents {}
