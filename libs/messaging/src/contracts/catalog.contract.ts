/** Subjects the catalog service answers or emits. Added here as its features are built. */
export const CatalogSubjects = {} as const;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CatalogRequests {}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CatalogEvents {}
