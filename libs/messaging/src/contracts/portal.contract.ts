/** Subjects the portal service answers or emits. Added here as its features are built. */
export const PortalSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PortalRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PortalEvents {}
