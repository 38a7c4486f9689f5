import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/kb/knowledge-bases', summary: 'List knowledge bases' },
  { method: 'POST', path: '/kb/knowledge-bases', summary: 'Create knowledge base' },
  { method: 'POST', path: '/kb/knowledge-bases/:id/documents', summary: 'Add document' },
  { method: 'POST', path: '/kb/knowledge-bases/:id/query', summary: 'Query knowledge base' },
];
