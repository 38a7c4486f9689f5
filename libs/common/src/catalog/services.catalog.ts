/**
 * The one list of services: the gateway routes by it, the test harness starts from it and every
 * service reads its own entry. Adding a service means adding a line here, not editing five files.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PlannedRoute {
  method: HttpMethod;
  /** Nest/Express route path, e.g. `/catalog/connectors/:id`. */
  path: string;
  summary: string;
  /** Scopes the route will require; checked already, so callers see the final 403s now. */
  scopes?: string[];
}

/**
 * Settings of services that bound how long one of their requests may take (waiting on a model
 * provider, an agent's run), with their defaults. The services and the gateway both read them
 * (the same environment variables), so the gateway waits for the service's own answer.
 */
export const SERVICE_TIME_LIMITS = {
  AI_PROVIDER_TIMEOUT_MS: 60_000,
  AI_AGENT_TIME_BUDGET_MS: 300_000,
  /** The longest `Prefer: wait` a `GET /run/executions/{id}` is held for its run's end. */
  EXECUTION_WAIT_MAX_MS: 60_000,
} as const;

export type ServiceTimeLimit = keyof typeof SERVICE_TIME_LIMITS;

/**
 * A route that may rightly take longer than the gateway's UPSTREAM_TIMEOUT_MS: the service waits on
 * a third party under its own limit and answers its own timeout error (`504 provider_timeout`).
 * The gateway waits for the sum of `bounds` plus UPSTREAM_TIMEOUT_MARGIN_MS on it.
 */
export interface LongRoute {
  method: HttpMethod;
  /** Matched against the short path (without the query, after the `/api/v1/workflow` form is stripped). */
  path: RegExp;
  bounds: readonly ServiceTimeLimit[];
}

export interface ServiceDefinition {
  /** Folder under apps/ and the name used in logs, docs and health. */
  name: ServiceName;
  /**
   * Public path prefixes the gateway sends to this service, unchanged. The first is the
   * service's short prefix; `/api/v1/workflow/<short prefix>/...` also reaches it (prefix stripped).
   */
  prefixes: string[];
  /** Default HTTP port; overridden by PORT in the service and <NAME>_URL in the gateway. */
  port: number;
  /** PostgreSQL schema this service owns. */
  schema: string;
  title: string;
  description: string;
  /**
   * Node.js options this service starts with, wherever it is launched (npm start, the test
   * harness, docker-compose, Kubernetes): the same process everywhere.
   */
  nodeArgs?: readonly string[];
  longRoutes?: readonly LongRoute[];
}

export const SERVICE_NAMES = [
  'account',
  'catalog',
  'connection',
  'portal',
  'run',
  'trigger',
  'task',
  'webhook',
  'storage',
  'subscription',
  'notification',
  'ai-runtime',
  'kb-worker',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export const SERVICES: Readonly<Record<ServiceName, ServiceDefinition>> = {
  account: {
    name: 'account',
    prefixes: ['/account', '/api/v1/workflow/data-planes'],
    port: 8101,
    schema: 'account',
    title: 'Account',
    description: 'Users, organizations, teams, API key management',
  },
  catalog: {
    name: 'catalog',
    prefixes: ['/catalog'],
    port: 8102,
    schema: 'catalog',
    title: 'Catalog',
    description: 'Connector catalog, templates, marketplace, AI agent configuration',
  },
  connection: {
    name: 'connection',
    prefixes: ['/connections'],
    port: 8103,
    schema: 'connection',
    title: 'Connection',
    description: 'OAuth connections, API key credentials, integration management',
  },
  portal: {
    name: 'portal',
    prefixes: ['/portal'],
    port: 8104,
    schema: 'portal',
    title: 'Portal',
    description: 'Workflow publishing, dashboards, embedded forms',
  },
  run: {
    name: 'run',
    prefixes: ['/run', '/v1/automations', '/api/v1/workflow/workflows'],
    port: 8105,
    schema: 'run',
    title: 'Run',
    description: 'Workflow execution, run history, logs',
    // The engine allocates short-lived objects per step: a larger young generation halves its
    // scavenges (measured +10-15% runs/s in `npm run bench -- engine`).
    nodeArgs: ['--max-semi-space-size=32'],
    // `Prefer: wait=<s>` holds these answers until the run has finished (executions/prefer-wait.ts).
    longRoutes: [
      { method: 'GET', path: /^\/run\/executions\/[^/]+\/?$/, bounds: ['EXECUTION_WAIT_MAX_MS'] },
      { method: 'POST', path: /^\/v1\/automations\/run\/?$/, bounds: ['EXECUTION_WAIT_MAX_MS'] },
      { method: 'POST', path: /^\/run\/workflows\/[^/]+\/execute\/?$/, bounds: ['EXECUTION_WAIT_MAX_MS'] },
    ],
  },
  trigger: {
    name: 'trigger',
    prefixes: ['/triggers'],
    port: 8106,
    schema: 'trigger',
    title: 'Trigger',
    description: 'Event triggers, schedules, webhook triggers',
  },
  task: {
    name: 'task',
    prefixes: ['/tasks'],
    port: 8107,
    schema: 'task',
    title: 'Task',
    description: 'Human tasks, approvals, interactive forms',
  },
  webhook: {
    name: 'webhook',
    prefixes: ['/webhooks'],
    port: 8108,
    schema: 'webhook',
    title: 'Webhook',
    description: 'Incoming webhook management and configuration',
  },
  storage: {
    name: 'storage',
    prefixes: ['/storage', '/v1/data'],
    port: 8109,
    schema: 'storage',
    title: 'Storage',
    description: 'File storage, resources, secrets, data tables and data query',
  },
  subscription: {
    name: 'subscription',
    prefixes: ['/subscription'],
    port: 8110,
    schema: 'subscription',
    title: 'Subscription',
    description: 'Billing, plans, usage tracking',
  },
  notification: {
    name: 'notification',
    prefixes: ['/notifications'],
    port: 8111,
    schema: 'notification',
    title: 'Notification',
    description: 'Email, Slack and Teams notifications',
  },
  'ai-runtime': {
    name: 'ai-runtime',
    prefixes: ['/ai'],
    port: 8112,
    schema: 'ai',
    title: 'AI Runtime',
    description: 'LLM execution, AI agents, embeddings',
    longRoutes: [
      { method: 'POST', path: /^\/ai\/(generate|chat|embeddings)\/?$/, bounds: ['AI_PROVIDER_TIMEOUT_MS'] },
      // An agent run stops at its budget, but a model call under way when it runs out may last one provider timeout longer.
      { method: 'POST', path: /^\/ai\/agents\/[^/]+\/execute\/?$/, bounds: ['AI_AGENT_TIME_BUDGET_MS', 'AI_PROVIDER_TIMEOUT_MS'] },
    ],
  },
  'kb-worker': {
    name: 'kb-worker',
    prefixes: ['/kb'],
    port: 8113,
    schema: 'kb',
    title: 'KB Worker',
    description: 'Knowledge base indexing and retrieval-augmented generation',
  },
};

/** `ai-runtime` → `AI_RUNTIME`: the stem of a service's environment variables (AI_RUNTIME_URL). */
export function envStem(name: ServiceName): string {
  return name.toUpperCase().replace(/-/g, '_');
}
