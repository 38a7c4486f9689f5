import { Injectable } from '@nestjs/common';
import type { StepExecutor } from './steps/step-executor.js';

/**
 * Action step types by name. The engine knows control flow; everything that does work
 * (`transform`, `http.request`, `code`, `data.*`, later `connector`, `notification`, `ai.generate`,
 * `kb.query`) is an executor registered here, so a new type needs no engine change.
 */
@Injectable()
export class StepRegistry {
  private readonly executors = new Map<string, StepExecutor>();

  register(...executors: StepExecutor[]): void {
    for (const executor of executors) {
      if (this.executors.has(executor.type)) throw new Error(`Step type ${executor.type} is registered twice`);
      this.executors.set(executor.type, executor);
    }
  }

  get(type: string): StepExecutor | undefined {
    return this.executors.get(type);
  }

  types(): string[] {
    return [...this.executors.keys()].sort();
  }
}
