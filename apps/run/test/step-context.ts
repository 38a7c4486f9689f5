import { StepError, type LogLevel, type StepContext, type StepSettings } from '../src/engine/steps/step-executor.js';

export interface LoggedLine {
  level: LogLevel;
  message: string;
  data?: Record<string, unknown>;
}

/** What a step executor is handed by the engine, for tests of one executor; it keeps what the step logs. */
export function stepContext(stepId: string, settings: StepSettings, signal: AbortSignal = new AbortController().signal): StepContext & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  return {
    executionId: 'exec-1',
    workflowId: 'wf-1',
    stepId,
    attempt: 1,
    tenant: { tenantId: '00000000-0000-0000-0000-000000000001', environmentId: '00000000-0000-0000-0000-000000000002', requestId: 'req-1' },
    signal,
    settings,
    log: (level, message, data) => lines.push({ level, message, data }),
    lines,
  };
}

/** The StepError a step's work failed with (anything else fails the test). */
export async function stepFailure(work: Promise<unknown>): Promise<StepError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof StepError) return error;
    throw error;
  }
  throw new Error('expected a StepError');
}
