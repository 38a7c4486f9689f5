import { Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, pageOfList, type Page } from '@platform/common';
import type { TenantContext } from '@platform/db';
import type { ConnectorDefinition, ConnectorOperation, ExecuteOperationRequest, ExecuteOperationResult } from '@platform/messaging';
import { ConnectorDefinitions } from '../connectors/connector-definitions.js';
import { credentialRedactor, type ConnectionRow, type Credentials } from '../connections/connection.record.js';
import { ConnectionErrors } from '../connections/connections.errors.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { TokenKeeper } from '../oauth/token-keeper.js';
import { InputValidator } from '../connectors/input-validator.js';
import { OperationDrivers } from './operation-drivers.js';
import type { OperationResult } from './operation.types.js';
import { render } from './templates.js';

export interface ConnectionTestResult {
  ok: boolean;
  status?: number;
  message?: string;
}

/** Runs connector operations with a connection's credentials: for runs and agents (NATS), and connection tests (HTTP). */
@Injectable()
export class OperationsService {
  private readonly logger = new Logger('Operations');

  constructor(
    private readonly connections: ConnectionsService,
    private readonly definitions: ConnectorDefinitions,
    private readonly validator: InputValidator,
    private readonly tokens: TokenKeeper,
    private readonly drivers: OperationDrivers,
  ) {}

  /** `connection.operations.execute`: the connection named, or the calling customer's own connection of a connector. */
  async execute(ctx: TenantContext, req: ExecuteOperationRequest): Promise<ExecuteOperationResult> {
    if (!req.connectionId === !req.customerConnection) {
      throw ConnectionErrors.invalid('connection_id', 'exactly one of connection_id and customer_connection is required');
    }
    const { row, credentials } = await this.connections.open(ctx, req);
    const def = await this.definitions.get(ctx, row.connector_id);
    const operation = findOperation(def, req.operationId);
    const input = this.validator.check(operation.input_schema, req.input ?? {});
    const result = await this.run(row, credentials, def, operation, input, req.idempotencyKey);
    const { ok: _, ...answer } = result;
    return { ...answer, ok: result.ok };
  }

  /** A real call through the connector's test operation; the remote side's refusal is an answer, not an error. */
  async test(p: Principal, id: string): Promise<ConnectionTestResult> {
    const row = await this.connections.row(p, id);
    const def = await this.definitions.get(p, row.connector_id);
    const operation = findOperation(def, def.test_operation.operation);
    let outcome: ConnectionTestResult;
    try {
      const input = this.validator.check(
        operation.input_schema,
        render(def.test_operation.input, { input: {}, settings: row.settings }) as Record<string, unknown>,
      );
      const result = await this.run(row, this.connections.box.open(row), def, operation, input);
      outcome = result.ok ? { ok: true } : { ok: false, status: result.status, message: result.message ?? `the remote side answered ${result.status}` };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome = { ok: false, status: error.status, message: error.message };
    }
    await this.connections.recordTest(p, id, outcome.ok);
    return outcome;
  }

  /** One page of the operations of the connection's connector, by operation id. */
  async operations(
    p: Principal,
    id: string,
    q: { limit: number; cursor?: string },
  ): Promise<{ connector_id: string } & Page<Pick<ConnectorOperation, 'id' | 'name' | 'description' | 'input_schema' | 'output_schema'>>> {
    const row = await this.connections.row(p, id);
    const def = await this.definitions.get(p, row.connector_id);
    const all = def.operations.map((o) => ({
      id: o.id,
      name: o.name,
      description: o.description,
      input_schema: o.input_schema,
      output_schema: o.output_schema,
    }));
    return { connector_id: def.id, ...pageOfList(all, q, 'operation', (o) => o.id) };
  }

  private async run(
    row: ConnectionRow,
    opened: Credentials,
    definition: ConnectorDefinition,
    operation: ConnectorOperation,
    input: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<OperationResult> {
    const started = Date.now();
    // The remote side may echo the credentials it was sent (in an error, a body, a header it reflects): whatever
    // comes back, answered or thrown, is redacted before it is logged or leaves the service.
    let redactor = credentialRedactor(opened);
    try {
      let credentials = await this.usable(row, opened);
      redactor = redactor.with([credentials.access_token, credentials.refresh_token]);
      let result = await this.drivers.run({ definition, operation, connection: row, credentials, input, idempotencyKey });
      if (result.status === 401 && this.tokens.isOAuth(row) && credentials.access_token) {
        // Refused before its expiry (revoked, rotated elsewhere): one refresh, one more try.
        credentials = await this.usable(row, credentials, credentials.access_token);
        redactor = redactor.with([credentials.access_token, credentials.refresh_token]);
        result = await this.drivers.run({ definition, operation, connection: row, credentials, input, idempotencyKey });
      }
      this.logger.debug(`${definition.id}.${operation.id} on connection ${row.id}: ${result.status} in ${Date.now() - started} ms`);
      return redactor.redact(result);
    } catch (error) {
      redactor.error(error);
      this.logger.warn(`${definition.id}.${operation.id} on connection ${row.id} failed in ${Date.now() - started} ms: ${(error as Error).message}`);
      throw error;
    }
  }

  /** Fresh credentials; a refreshed token (or a refusal) drops the cached connection, read again next time. */
  private async usable(row: ConnectionRow, opened: Credentials, rejected?: string): Promise<Credentials> {
    try {
      const credentials = await this.tokens.fresh(row, opened, rejected);
      if (credentials !== opened) this.connections.forget(row.id);
      return credentials;
    } catch (error) {
      this.connections.forget(row.id);
      throw error;
    }
  }
}

function findOperation(def: ConnectorDefinition, id: string): ConnectorOperation {
  const operation = def.operations.find((o) => o.id === id);
  if (!operation) throw ConnectionErrors.unknownOperation(def.id, id);
  return operation;
}
