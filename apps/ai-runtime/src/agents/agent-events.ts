import type { Response } from 'express';
import type { AgentRunView } from '@platform/messaging';
import type { RunObserver } from './agent-runner.service.js';

/**
 * The streamed execute (`stream: true`) as server-sent events, written as they happen (the
 * gateway passes them on unbuffered): `run` with the run's id once it is recorded (the headers
 * are written then, so an unknown agent is still a plain 404), one event per step as recorded
 * (`model`, `tool`, `approval`), then `result` with the run as `GET /ai/agent-runs/{id}` shows
 * it, and `data: [DONE]`. A failure after the headers is an `error` event.
 */
export class AgentEventStream implements RunObserver {
  private open = false;
  private closed = false;
  private runId = '';

  constructor(private readonly res: Response) {
    res.once('close', () => {
      this.closed = true;
    });
  }

  started(runId: string): void {
    this.runId = runId;
    this.res.status(200);
    this.res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('cache-control', 'no-cache, no-transform');
    this.res.setHeader('x-accel-buffering', 'no');
    this.res.flushHeaders();
    this.open = true;
    this.send({ type: 'run', run_id: runId });
  }

  step(step: Record<string, unknown>): void {
    this.send({ ...step, run_id: this.runId, type: step.type });
  }

  /** The run as it ended or paused; the run goes on whether or not the client is still there. */
  async finish(run: Promise<AgentRunView>): Promise<void> {
    try {
      const view = await run;
      this.send({ type: 'result', run: view });
    } catch (error) {
      if (!this.open) throw error;
      this.send({ type: 'error', status: (error as { status?: number }).status ?? 500, message: (error as Error).message });
    }
    if (!this.closed) this.res.end('data: [DONE]\n\n');
  }

  private send(payload: unknown): void {
    if (this.open && !this.closed) this.res.write(`data: ${JSON.stringify(payload)}\n\n`);
  }
}
