import { RunWaitTimeoutError } from '../errors.js';
import { nextPollInterval } from '../poll-schedule.js';
import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';
import { isFinal, type Execution, type ExecutionLog, type ExecutionStatus, type ExecutionSummary, type RunAccepted } from '../types.js';

export interface StartOptions extends CallOptions {
  /** A retried start with the same key returns the first run (kept 24 hours). */
  idempotencyKey?: string;
}

export interface WaitOptions extends CallOptions {
  /** Give up (RunWaitTimeoutError) after this many ms; the run itself goes on. Default: no limit. */
  timeout?: number;
  /**
   * The longest pause between two polls, in ms (they start at 5 ms and double), when the platform
   * does not hold the reads itself (`Prefer: wait`, answered without `Preference-Applied`: an
   * older platform, or a proxy that drops the header). Default 1,000.
   */
  maxPollInterval?: number;
  /** Called with every status read while waiting. */
  onStatus?: (execution: Execution) => void;
}

export interface ExecutionFilters {
  workflow_id?: string;
  status?: ExecutionStatus;
  trigger_type?: 'api' | 'schedule' | 'event' | 'webhook' | 'portal' | 'subworkflow';
  created_after?: string;
  created_before?: string;
}

export interface LogFilters {
  level?: 'debug' | 'info' | 'warn' | 'error';
  step_id?: string;
}

/** The longest a read is held (`Prefer: wait`): below proxies' usual idle timeouts (60 s). */
const LONGEST_HOLD_SECONDS = 30;

/** The platform honoured a `Prefer: wait` (an older one answers without `Preference-Applied`). */
function waitApplied(headers: { get(name: string): string | null }): boolean {
  return /(^|[,\s])wait=\d+/i.test(headers.get('preference-applied') ?? '');
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/** `/run/executions`: reading, following and cancelling runs. */
export class Executions {
  constructor(private readonly http: Transport) {}

  /** Newest first, without steps, every page. */
  list(filters: ExecutionFilters = {}, options: ListOptions = {}): Paginated<ExecutionSummary> {
    return new Paginated(
      (page, call) => this.http.request<Page<ExecutionSummary>>('GET', '/run/executions', { ...call, query: { ...filters, ...page } }),
      options,
    );
  }

  get(id: string, options: CallOptions = {}): Promise<Execution> {
    return this.http.request('GET', `/run/executions/${encodeURIComponent(id)}`, options);
  }

  /**
   * The run, the answer held by the platform until it is final or `waitSeconds` have passed
   * (`Prefer: wait`). `held`: the platform honoured the preference (`Preference-Applied`); when it
   * did not, the run is answered as it is at once and the caller has to poll.
   */
  async getHeld(id: string, waitSeconds: number, options: CallOptions = {}): Promise<{ execution: Execution; held: boolean }> {
    const { body, headers } = await this.http.exchange<Execution>('GET', `/run/executions/${encodeURIComponent(id)}`, {
      ...options,
      headers: { ...options.headers, prefer: `wait=${waitSeconds}` },
    });
    return { execution: body, held: waitApplied(headers) };
  }

  cancel(id: string, options: CallOptions = {}): Promise<Execution> {
    return this.http.request('POST', `/run/executions/${encodeURIComponent(id)}/cancel`, options);
  }

  /** The run's logs so far, oldest first. */
  logs(id: string, filters: LogFilters = {}, options: ListOptions = {}): Paginated<ExecutionLog> {
    return new Paginated(
      (page, call) =>
        this.http.request<Page<ExecutionLog>>('GET', `/run/executions/${encodeURIComponent(id)}/logs`, { ...call, query: { ...filters, ...page } }),
      options,
    );
  }

  /**
   * The run's logs as they are written, until the run has finished and its last lines are read.
   * The last page has no cursor, so it is read again from the cursor that led to it, skipping
   * the lines already given.
   */
  async *follow(
    id: string,
    filters: LogFilters = {},
    options: CallOptions & { pollInterval?: number } = {},
  ): AsyncGenerator<ExecutionLog, Execution, undefined> {
    const { pollInterval = 500, ...call } = options;
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      // Read the status first: lines written before it finished are then all on the pages read after.
      const execution = await this.get(id, call);
      for (;;) {
        const page = await this.http.request<Page<ExecutionLog>>('GET', `/run/executions/${encodeURIComponent(id)}/logs`, {
          ...call,
          query: { ...filters, limit: 200, cursor },
        });
        for (const line of page.data) {
          if (seen.has(line.id)) continue;
          seen.add(line.id);
          yield line;
        }
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
        seen.clear();
      }
      if (isFinal(execution.status)) return execution;
      await pause(pollInterval, call.signal);
    }
  }
}

/** The request of a start: the body, and the Idempotency-Key among the call's headers. */
function startRequest(automation: string, input: Record<string, unknown>, options: StartOptions) {
  const { idempotencyKey, ...call } = options;
  const headers = idempotencyKey ? { ...call.headers, 'idempotency-key': idempotencyKey } : call.headers;
  return { ...call, headers, body: { automation_id: automation, input } };
}

/** Starting runs, and waiting for them. */
export class Runs {
  constructor(
    private readonly http: Transport,
    private readonly executions: Executions,
  ) {}

  /** Starts the current version of workflow `automation` (its id) with `input`: the run id and `queued`. */
  start(automation: string, input: Record<string, unknown> = {}, options: StartOptions = {}): Promise<RunAccepted> {
    return this.http.request('POST', '/v1/automations/run', startRequest(automation, input, options));
  }

  /**
   * Starts a run with the answer held by the platform up to `waitSeconds` (`Prefer: wait`): with
   * `execution` (the finished run) when it ended by then, else the accepted run alone (its id and
   * current status; a platform that does not hold starts answers so at once).
   */
  async startHeld(
    automation: string,
    input: Record<string, unknown>,
    waitSeconds: number,
    options: StartOptions = {},
  ): Promise<RunAccepted & { execution?: Execution }> {
    const { status, body } = await this.http.exchange<RunAccepted | Execution>(
      'POST',
      '/v1/automations/run',
      startRequest(automation, input, { ...options, headers: { ...options.headers, prefer: `wait=${waitSeconds}` } }),
    );
    if (status === 200 && 'id' in body) return { run_id: body.id, status: body.status, execution: body };
    return body as RunAccepted;
  }

  /** The longest a request may be held within `leftMs`: 30 s, less near the deadline or the transport's per-attempt limit; 0: not at all. */
  holdSeconds(leftMs: number): number {
    const attemptLimit = this.http.attemptTimeoutMs === undefined ? Infinity : Math.floor(this.http.attemptTimeoutMs / 1000) - 1;
    return Math.max(0, Math.min(LONGEST_HOLD_SECONDS, attemptLimit, Math.floor(leftMs / 1000)));
  }

  /**
   * Waits until the run's status is final (succeeded, failed, cancelled, timed_out) and returns it.
   * Each read is held by the platform until the run ends (`Prefer: wait`, up to 30 s a read), so
   * the end is seen a few ms after it happens with one request; a platform that does not hold
   * reads is polled instead, at pauses from 5 ms doubling up to `maxPollInterval`.
   */
  async wait(id: string, options: WaitOptions = {}): Promise<Execution> {
    const { timeout, maxPollInterval = 1000, onStatus, ...call } = options;
    const deadline = timeout === undefined ? Infinity : Date.now() + timeout;
    let holds = true;
    let interval = nextPollInterval(undefined, maxPollInterval);
    for (;;) {
      const waitSeconds = holds ? this.holdSeconds(deadline - Date.now()) : 0;
      let execution: Execution;
      if (waitSeconds >= 1) {
        const read = await this.executions.getHeld(id, waitSeconds, call);
        execution = read.execution;
        // Not honoured: an older platform; poll from now on.
        holds = read.held;
      } else execution = await this.executions.get(id, call);
      onStatus?.(execution);
      if (isFinal(execution.status)) return execution;
      const left = deadline - Date.now();
      if (left <= 0) throw new RunWaitTimeoutError(id, timeout!, execution.status);
      // A held read has waited already: ask again at once.
      if (holds && waitSeconds >= 1) continue;
      const wakeIn = execution.wake_at ? Date.parse(execution.wake_at) - Date.now() : 0;
      await pause(Math.min(Math.max(interval, wakeIn), left, maxPollInterval), call.signal);
      interval = nextPollInterval(interval, maxPollInterval);
    }
  }

  /**
   * Starts a run and waits for it: the finished execution, whatever its status. The start itself
   * is held until the run ends (`Prefer: wait`), so a short run takes one request.
   */
  async run(automation: string, input: Record<string, unknown> = {}, options: StartOptions & WaitOptions = {}): Promise<Execution> {
    const { idempotencyKey, timeout, maxPollInterval, onStatus, ...call } = options;
    const started = Date.now();
    const hold = this.holdSeconds(timeout ?? Infinity);
    const accepted: RunAccepted & { execution?: Execution } =
      hold >= 1 ? await this.startHeld(automation, input, hold, { ...call, idempotencyKey }) : await this.start(automation, input, { ...call, idempotencyKey });
    if (accepted.execution) {
      onStatus?.(accepted.execution);
      return accepted.execution;
    }
    return this.wait(accepted.run_id, { ...call, maxPollInterval, onStatus, timeout: timeout === undefined ? undefined : timeout - (Date.now() - started) });
  }
}
