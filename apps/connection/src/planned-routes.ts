import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/connections', summary: 'List connections' },
  { method: 'POST', path: '/connections', summary: 'Create connection' },
  { method: 'POST', path: '/connections/:id/test', summary: 'Test connection' },
  { method: 'GET', path: '/connections/:id/operations', summary: 'List connector operations' },
];
