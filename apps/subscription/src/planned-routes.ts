import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/subscription/current', summary: 'Get current subscription' },
  { method: 'GET', path: '/subscription/usage', summary: 'Get usage metrics' },
  { method: 'GET', path: '/subscription/invoices', summary: 'List invoices' },
];
