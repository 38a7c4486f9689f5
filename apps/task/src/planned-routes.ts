import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/tasks', summary: 'List pending tasks' },
  { method: 'GET', path: '/tasks/:id', summary: 'Get task details' },
  { method: 'POST', path: '/tasks/:id/complete', summary: 'Complete task' },
  { method: 'POST', path: '/tasks/:id/assign', summary: 'Assign task' },
];
