import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/account/me', summary: 'Get current user' },
  { method: 'GET', path: '/account/organizations', summary: 'List organizations' },
  { method: 'GET', path: '/account/team/members', summary: 'List team members' },
  { method: 'POST', path: '/account/api-keys', summary: 'Create API key' },
  { method: 'POST', path: '/api/v1/workflow/data-planes/:dataPlaneId/api-keys', summary: 'Create key' },
  { method: 'GET', path: '/api/v1/workflow/data-planes/api-keys', summary: 'List keys' },
  { method: 'GET', path: '/api/v1/workflow/data-planes/api-keys/:keyId', summary: 'Get key details' },
  { method: 'POST', path: '/api/v1/workflow/data-planes/api-keys/:keyId/rotate', summary: 'Rotate key' },
];
