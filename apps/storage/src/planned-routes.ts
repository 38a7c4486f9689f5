import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/storage/files', summary: 'List files' },
  { method: 'POST', path: '/storage/files/upload', summary: 'Upload file' },
  { method: 'GET', path: '/storage/resources', summary: 'List resources' },
  { method: 'GET', path: '/storage/secrets', summary: 'List secrets (names only)', scopes: ['secrets:read'] },
  { method: 'POST', path: '/v1/data/query', summary: 'Query data with SQL', scopes: ['data:read'] },
];
