import type { ConnectorDefinition, ConnectorOperation, ExecuteOperationResult } from '@platform/messaging';
import type { ConnectionRow, Credentials } from '../connections/connection.record.js';

/** Everything one operation call needs; credentials are already fresh (OAuth refreshed). */
export interface OperationCall {
  definition: ConnectorDefinition;
  operation: ConnectorOperation;
  connection: ConnectionRow;
  credentials: Credentials;
  /** Validated against the operation's input schema, defaults applied. */
  input: Record<string, unknown>;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type OperationResult = ExecuteOperationResult & { ok: boolean };

/** Rate limiting and passing outages, when the definition does not list its own. */
export const DEFAULT_RETRYABLE_STATUSES = [429, 502, 503, 504];
