/** Subjects the catalog service answers or emits. Added here as its features are built. */
export const CatalogSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type CatalogRequests = Record<never, never>;

/** None yet: added here as the service's features are built. */
export type CatalogEvents = Record<never, never>;
