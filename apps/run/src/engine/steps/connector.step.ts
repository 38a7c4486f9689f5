import { createHash } from 'node:crypto';
import { Bus, BusError, ConnectionSubjects, messageContext, type ExecuteOperationResult } from '@platform/messaging';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

/** The output of a connector step. */
export interface ConnectorStepOutput {
  status: number;
  data: unknown;
}

const DEFAULT_RETRIES = 2;
const MAX_RETRIES = 10;
/** Waits up to this long (a remote Retry-After included) are slept in the step; longer ones go back to the engine's retry policy. */
const INLINE_WAIT_MAX_MS = 30_000;
const BASE_BACKOFF_MS = 250;
/** Above the connection service's own call deadline (CONNECTION_TIMEOUT_MS, 30 s by default). */
const REQUEST_TIMEOUT_MS = 45_000;

/**
 * Runs one operation of a catalog connector with a connection's credentials, inside the connection
 * service (`connection.operations.execute`): the credentials never reach the engine, the step's
 * input or output, or the execution record. Input: `{ connection_id | customer_connection,
 * operation, params?, max_retries? }`; `customer_connection` (a connector id) is resolved to the
 * run's customer's own connection. The connection service validates `params` against the
 * operation's schema and applies the same SSRF rules as http.request. The connector's retryable
 * statuses are retried here (`max_retries`, default 2), waiting the remote `Retry-After`.
 */
export class ConnectorStep implements StepExecutor {
  readonly type = 'connector';

  constructor(private readonly bus: Bus) {}

  validate(step: StepDefinition): StepProblem[] {
    const input = step.input ?? {};
    const problems: StepProblem[] = [];
    if (!('operation' in input)) problems.push({ path: 'input.operation', message: 'is required' });
    if ('connection_id' in input === 'customer_connection' in input) {
      problems.push({ path: 'input.connection_id', message: 'exactly one of connection_id and customer_connection is required' });
    }
    for (const key of Object.keys(input)) {
      if (!['connection_id', 'customer_connection', 'operation', 'params', 'max_retries'].includes(key))
        problems.push({ path: `input.${key}`, message: 'is not an input of a connector step' });
    }
    return problems;
  }

  async execute(input: Record<string, unknown>, step: StepDefinition, context: StepContext): Promise<ConnectorStepOutput> {
    const request = {
      connectionId: input.connection_id as string | undefined,
      customerConnection: input.customer_connection as string | undefined,
      operationId: input.operation as string,
      input: (input.params ?? {}) as Record<string, unknown>,
      // The same for every attempt and resume of this step: an API that takes idempotency keys (Stripe) never acts twice.
      idempotencyKey: `run:${context.executionId}:${step.id}:${digest(input)}`,
    };
    const retries = typeof input.max_retries === 'number' ? Math.max(0, Math.min(MAX_RETRIES, Math.floor(input.max_retries))) : DEFAULT_RETRIES;
    const label = `${request.customerConnection ?? request.connectionId ?? '?'}.${request.operationId}`;
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      const result = await this.call(request, context);
      context.log(result.ok === false ? 'warn' : 'info', `connector ${label} ${result.status} ${Date.now() - started}ms`, {
        operation: request.operationId,
        status: result.status,
        duration_ms: Date.now() - started,
      });
      if (result.ok !== false) return { status: result.status, data: result.output };
      const details = { status: result.status, ...(result.retryAfterMs !== undefined ? { retry_after_ms: result.retryAfterMs } : {}) };
      const failure = new StepError(
        'connector_error',
        `${step.id}: ${result.message ?? `the remote side answered ${result.status}`}`,
        result.retryable === true,
        details,
      );
      if (!result.retryable || attempt >= retries) throw failure;
      const wait = result.retryAfterMs ?? BASE_BACKOFF_MS * 2 ** attempt;
      if (wait > INLINE_WAIT_MAX_MS) throw failure;
      await sleep(wait, context.signal);
      if (context.signal.aborted) throw new StepError('aborted', 'the step was aborted', false);
    }
  }

  private async call(request: Parameters<Bus['request']>[1], context: StepContext): Promise<ExecuteOperationResult> {
    const message = messageContext(context.tenant, { requestId: context.tenant.requestId, actor: `run:execution:${context.executionId}` });
    try {
      return await this.bus.request(ConnectionSubjects.operationsExecute, request as never, message, { timeoutMs: REQUEST_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500) {
        // The definition's or the connection's fault (unknown connection, bad params, needs re-authorization): not worth retrying.
        throw new StepError(error.remote.code, error.remote.message, error.remote.status === 429, { status: error.remote.status });
      }
      if (error instanceof BusError && error.code === 'remote' && error.remote) {
        throw new StepError(error.remote.code, error.remote.message, true, { status: error.remote.status });
      }
      throw new StepError('connector_unavailable', (error as Error).message, true);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function digest(input: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url').slice(0, 22);
}
