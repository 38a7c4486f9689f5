import type { PlannedRoute } from '@platform/common';

/** Spec routes of this service whose feature is not built yet: they answer 501. */
export const PLANNED_ROUTES: readonly PlannedRoute[] = [
  { method: 'GET', path: '/catalog/ai-agents', summary: 'List AI agents' },
  { method: 'GET', path: '/catalog/llm-models', summary: 'List LLM models' },
];
