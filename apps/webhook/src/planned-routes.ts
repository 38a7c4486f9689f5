import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/webhooks', summary: 'List webhooks' },
  { method: 'POST', path: '/webhooks', summary: 'Create webhook' },
  { method: 'GET', path: '/webhooks/:id/logs', summary: 'Get webhook logs' },
];
