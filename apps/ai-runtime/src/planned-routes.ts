import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'POST', path: '/ai/generate', summary: 'Generate text with an LLM' },
  { method: 'POST', path: '/ai/chat', summary: 'Chat conversation' },
  { method: 'POST', path: '/ai/embeddings', summary: 'Generate embeddings' },
  { method: 'GET', path: '/ai/agents', summary: 'List AI agents' },
  { method: 'POST', path: '/ai/agents/:id/execute', summary: 'Execute AI agent' },
];
