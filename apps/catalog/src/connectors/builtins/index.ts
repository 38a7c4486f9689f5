import type { ConnectorDefinition } from '@platform/messaging';
import { GITHUB_CONNECTOR, GOOGLE_SHEETS_CONNECTOR, STRIPE_CONNECTOR } from './developer.js';
import { POSTGRESQL_CONNECTOR, SMTP_CONNECTOR } from './drivers.js';
import { HTTP_CONNECTOR, OPENAI_CONNECTOR } from './generic.js';
import { SLACK_CONNECTOR, TEAMS_CONNECTOR } from './messaging.js';

/** The connectors every tenant has. */
export const BUILT_IN_CONNECTORS: readonly ConnectorDefinition[] = [
  HTTP_CONNECTOR,
  SLACK_CONNECTOR,
  TEAMS_CONNECTOR,
  GITHUB_CONNECTOR,
  GOOGLE_SHEETS_CONNECTOR,
  STRIPE_CONNECTOR,
  POSTGRESQL_CONNECTOR,
  SMTP_CONNECTOR,
  OPENAI_CONNECTOR,
];
