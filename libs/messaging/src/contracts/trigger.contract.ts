/** Subjects the trigger service answers or emits. Added here as its features are built. */
export const TriggerSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TriggerRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TriggerEvents {}
