/** Subjects the webhook service answers or emits. Added here as its features are built. */
export const WebhookSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhookRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhookEvents {}
