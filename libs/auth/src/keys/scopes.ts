/** The published scope catalogue (API-CONTRACT); `GET /account/api-keys/scopes` lists it. */
export const SCOPE_CATALOGUE: Readonly<Record<string, string>> = {
  'automations:run': 'Start automations (POST /v1/automations/run, execute a workflow)',
  'data:read': 'Query data (POST /v1/data/query) and read data tables',
  'data:write': 'Write data table rows',
  'workflows:read': 'Read workflows',
  'workflows:write': 'Create, update and delete workflows',
  'executions:read': 'Read executions and their logs',
  'executions:write': 'Cancel executions',
  'triggers:read': 'Read triggers',
  'triggers:write': 'Create, enable and disable triggers',
  'tasks:read': 'Read human tasks',
  'tasks:write': 'Complete and assign human tasks',
  'webhooks:read': 'Read webhooks and their logs',
  'webhooks:write': 'Create and change webhooks',
  'connections:read': 'Read connections',
  'connections:write': 'Create, test and change connections',
  'storage:read': 'Read files and resources',
  'storage:write': 'Upload and change files and resources',
  'secrets:read': 'Read secret names and metadata',
  'secrets:write': 'Create, replace and delete secrets',
  'ai:run': 'Use LLMs, embeddings and AI agents',
  'ai:write': 'Configure LLM providers and AI agents',
  'kb:read': 'Query knowledge bases',
  'kb:write': 'Create knowledge bases and add documents',
  'notifications:send': 'Send notifications',
  'notifications:read': 'Read notification channels and the notification history',
  'notifications:write': 'Create, change, test and delete notification channels',
  'portal:read': 'Read published workflows, dashboards and customers',
  'portal:write': 'Publish workflows, manage customers and embeds',
  'subscription:read': 'Read subscription, usage and invoices',
  'account:read': 'Read the account: users, organizations, teams, audit logs, key usage',
  'api_keys:manage': 'Create, list, rotate and revoke API keys',
  '*': 'Every scope',
};

export function isKnownScope(scope: string): boolean {
  return Object.hasOwn(SCOPE_CATALOGUE, scope);
}
