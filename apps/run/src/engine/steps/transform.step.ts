import type { StepExecutor } from './step-executor.js';

/** Its output is its evaluated input: reshape data with expressions. */
export class TransformStep implements StepExecutor {
  readonly type = 'transform';
  readonly pure = true;

  execute(input: Record<string, unknown>): Promise<unknown> {
    return Promise.resolve(input);
  }
}
