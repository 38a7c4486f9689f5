import { Inject, Injectable } from '@nestjs/common';
import { Bus, StorageSubjects, messageContext } from '@platform/messaging';
import { EXECUTION_STORE, type ExecutionStore } from '../engine.ports.js';
import { runContext, tenantOf, type ClaimedExecution, type ExecutionError, type RunnableDefinition, type StepRecord } from '../execution.records.js';
import { referencedSecrets } from '../redaction.js';
import { DefinitionsCache } from './definitions.cache.js';

/** What a run of an execution starts from: the definition of its version and what earlier runs recorded. */
export interface LoadedExecution {
  definition: RunnableDefinition;
  records: StepRecord[];
}

/** Loads what an execution runs with: its definition, its step records, and the secrets it refers to. */
@Injectable()
export class ExecutionContextLoader {
  constructor(
    private readonly definitions: DefinitionsCache,
    @Inject(EXECUTION_STORE) private readonly store: ExecutionStore,
    private readonly bus: Bus,
  ) {}

  /** undefined when the workflow version no longer exists. */
  async load(execution: ClaimedExecution): Promise<LoadedExecution | undefined> {
    // A fresh run has no history to replay, and a cached definition needs no query: a fresh run
    // of a known version reaches its first step without a round trip.
    const fresh = execution.previous_status === 'queued';
    const cached = this.definitions.peek(execution.tenant_id, execution.workflow_id, execution.workflow_version);
    const [definition, records] = await Promise.all([
      cached ?? this.definitions.get(tenantOf(execution), execution.workflow_id, execution.workflow_version),
      fresh ? [] : (execution.records ?? this.store.steps(execution)),
    ]);
    return definition ? { definition, records } : undefined;
  }

  /** Values of the secrets the definition refers to (none: no request), or why they could not be had. */
  async secrets(execution: ClaimedExecution, definition: RunnableDefinition): Promise<{ values: Record<string, string> } | { error: ExecutionError }> {
    const names = referencedSecrets(definition.steps);
    if (!names.length) return { values: {} };
    try {
      const resolved = await this.bus.request(
        StorageSubjects.secretsResolve,
        { names, purpose: `run:execution:${execution.id}` },
        messageContext(tenantOf(execution), runContext(execution)),
      );
      if (resolved.missing.length) return { error: { code: 'secret_missing', message: `Unknown secret(s): ${resolved.missing.join(', ')}`, step_id: null } };
      return { values: resolved.values };
    } catch (error) {
      return { error: { code: 'secrets_unavailable', message: `Secrets could not be read: ${(error as Error).message}`, step_id: null } };
    }
  }
}
