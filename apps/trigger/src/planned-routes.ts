import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/triggers', summary: 'List triggers' },
  { method: 'POST', path: '/triggers', summary: 'Create trigger' },
  { method: 'GET', path: '/triggers/:id/executions', summary: 'List trigger executions' },
  { method: 'PUT', path: '/triggers/:id/enable', summary: 'Enable trigger' },
  { method: 'PUT', path: '/triggers/:id/disable', summary: 'Disable trigger' },
];
