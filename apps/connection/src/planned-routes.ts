import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [];
