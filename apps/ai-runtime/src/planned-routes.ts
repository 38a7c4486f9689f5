import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/ai/agents', summary: 'List AI agents' },
  { method: 'POST', path: '/ai/agents/:id/execute', summary: 'Execute AI agent' },
];
