import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'POST', path: '/notifications/send', summary: 'Send notification' },
  { method: 'GET', path: '/notifications/history', summary: 'Get notification history' },
  { method: 'GET', path: '/notifications/channels', summary: 'List notification channels' },
];
