import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/api/v1/workflow/workflows', summary: 'List workflows', scopes: ['workflows:read'] },
  { method: 'POST', path: '/run/workflows/:id/execute', summary: 'Execute workflow', scopes: ['automations:run'] },
  { method: 'GET', path: '/run/executions', summary: 'List executions', scopes: ['executions:read'] },
  { method: 'GET', path: '/run/executions/:id', summary: 'Get execution details', scopes: ['executions:read'] },
  { method: 'GET', path: '/run/executions/:id/logs', summary: 'Get execution logs', scopes: ['executions:read'] },
  { method: 'POST', path: '/run/executions/:id/cancel', summary: 'Cancel execution', scopes: ['executions:write'] },
  { method: 'POST', path: '/v1/automations/run', summary: 'Run an automation', scopes: ['automations:run'] },
];
