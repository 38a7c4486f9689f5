import { Bus, BusError, StorageSubjects, messageContext, type StorageRequests } from '@platform/messaging';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

type Subject = keyof StorageRequests;

/**
 * Steps served by the storage service over NATS: data table reads and writes, small files.
 * A 4xx from storage is the definition's fault (not retried); unavailability is retried.
 */
class StorageStep implements StepExecutor {
  constructor(
    readonly type: string,
    private readonly subject: Subject,
    private readonly required: string[],
    private readonly bus: Bus,
  ) {}

  validate(step: StepDefinition): StepProblem[] {
    const input = step.input ?? {};
    return this.required.filter((key) => !(key in input)).map((key) => ({ path: `input.${key}`, message: 'is required' }));
  }

  async execute(input: Record<string, unknown>, _step: StepDefinition, context: StepContext): Promise<unknown> {
    try {
      const message = messageContext(context.tenant, { requestId: context.tenant.requestId, actor: `run:execution:${context.executionId}` });
      return await this.bus.request(this.subject, input as never, message, { timeoutMs: 30_000 });
    } catch (error) {
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500) {
        throw new StepError(error.remote.code, error.remote.message, false);
      }
      throw new StepError('storage_unavailable', (error as Error).message, true);
    }
  }
}

export function storageSteps(bus: Bus): StepExecutor[] {
  return [
    new StorageStep('data.query', StorageSubjects.dataQuery, ['query'], bus),
    new StorageStep('data.insert', StorageSubjects.dataInsert, ['table', 'rows'], bus),
    new StorageStep('data.update', StorageSubjects.dataUpdate, ['table', 'id', 'values'], bus),
    new StorageStep('data.delete', StorageSubjects.dataDelete, ['table', 'id'], bus),
    new StorageStep('file.read', StorageSubjects.filesRead, ['fileId'], bus),
    new StorageStep('file.write', StorageSubjects.filesWrite, ['name', 'contentBase64'], bus),
  ];
}
