/**
 * The requests that consume a metered quota, by the path the service receives (the long
 * `/api/v1/workflow/...` forms arrive here already shortened by the route table). Only these are
 * refused when the quota is used up; reads never are.
 */
const QUOTA_ROUTES: readonly { pattern: RegExp; metric: string }[] = [
  { pattern: /^\/v1\/automations\/run\/?$/, metric: 'runs' },
  { pattern: /^\/run\/workflows\/[^/]+\/execute\/?$/, metric: 'runs' },
  { pattern: /^\/portal\/workflows\/[^/]+\/run\/?$/, metric: 'runs' },
  { pattern: /^\/ai\/(generate|chat|embeddings)\/?$/, metric: 'ai_tokens' },
  { pattern: /^\/ai\/agents\/[^/]+\/execute\/?$/, metric: 'ai_tokens' },
  { pattern: /^\/notifications\/send\/?$/, metric: 'notifications' },
  { pattern: /^\/storage\/files\/upload\/?$/, metric: 'storage_bytes' },
  { pattern: /^\/(api\/v1\/workflow\/)?workflows\/?$/, metric: 'active_workflows' },
  { pattern: /^\/catalog\/templates\/[^/]+\/instantiate\/?$/, metric: 'active_workflows' },
];

/** The metric a request would add to, if any: only POSTs start metered work. */
export function quotaMetric(method: string | undefined, upstreamPath: string): string | undefined {
  if (method !== 'POST') return undefined;
  const queryAt = upstreamPath.indexOf('?');
  const path = queryAt === -1 ? upstreamPath : upstreamPath.slice(0, queryAt);
  return QUOTA_ROUTES.find((route) => route.pattern.test(path))?.metric;
}
