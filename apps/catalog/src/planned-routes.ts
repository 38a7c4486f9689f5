import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/catalog/connectors', summary: 'List connectors' },
  { method: 'GET', path: '/catalog/templates', summary: 'List workflow templates' },
  { method: 'GET', path: '/catalog/marketplace', summary: 'Browse marketplace' },
];
