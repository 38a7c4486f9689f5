import { AiRuntimeSubjects, Bus, BusError, KbWorkerSubjects, messageContext, type RequestMap, type RequestSubject } from '@platform/messaging';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

type Build<S extends RequestSubject> = (input: Record<string, unknown>, context: StepContext) => RequestMap[S]['request'];
type Shape<S extends RequestSubject> = (answer: RequestMap[S]['response']) => unknown;

/**
 * Steps served by the AI runtime and the KB worker over NATS. Inputs are the HTTP bodies' fields
 * (snake_case); they are checked by the service, so a bad input fails the step with the service's
 * 400 (not retried). A provider that limits (429), fails (502) or times out (504), or a service
 * that is down, is retried under the step's retry policy.
 */
interface ServiceStepSpec<S extends RequestSubject> {
  type: string;
  subject: S;
  required: string[];
  build: Build<S>;
  shape?: Shape<S>;
  timeoutMs?: number;
}

class ServiceStep<S extends RequestSubject> implements StepExecutor {
  readonly type: string;

  constructor(
    private readonly bus: Bus,
    private readonly spec: ServiceStepSpec<S>,
  ) {
    this.type = spec.type;
  }

  validate(step: StepDefinition): StepProblem[] {
    const input = step.input ?? {};
    return this.spec.required.filter((key) => !(key in input)).map((key) => ({ path: `input.${key}`, message: 'is required' }));
  }

  async execute(input: Record<string, unknown>, _step: StepDefinition, context: StepContext): Promise<unknown> {
    const message = messageContext(context.tenant, { requestId: context.tenant.requestId, actor: `run:execution:${context.executionId}` });
    try {
      const answer = await this.bus.request(this.spec.subject, this.spec.build(input, context), message, { timeoutMs: this.spec.timeoutMs ?? 120_000 });
      return this.spec.shape ? this.spec.shape(answer) : answer;
    } catch (error) {
      if (error instanceof StepError) throw error;
      if (error instanceof BusError && error.code === 'remote' && error.remote) {
        const { status, code, message: text } = error.remote;
        if (status < 500 && status !== 429) throw new StepError(code, text, false, { status });
        throw new StepError(code, text, true, { status });
      }
      throw new StepError(`${this.type.split('.')[0]}_unavailable`, (error as Error).message, true);
    }
  }
}

const str = (v: unknown) => v as string;
const num = (v: unknown) => v as number | undefined;

export function aiSteps(bus: Bus): StepExecutor[] {
  return [
    new ServiceStep(bus, {
      type: 'ai.generate',
      subject: AiRuntimeSubjects.generate,
      required: ['model', 'prompt'],
      build: (i) => ({
        model: str(i.model),
        prompt: str(i.prompt),
        system: i.system as string | undefined,
        maxTokens: num(i.max_tokens),
        temperature: num(i.temperature),
        responseFormat: i.response_format as 'text' | 'json' | undefined,
      }),
    }),
    new ServiceStep(bus, {
      type: 'ai.chat',
      subject: AiRuntimeSubjects.chat,
      required: ['model', 'messages'],
      build: (i) => ({
        model: str(i.model),
        messages: i.messages as never,
        tools: i.tools as never,
        maxTokens: num(i.max_tokens),
        temperature: num(i.temperature),
        responseFormat: i.response_format as 'text' | 'json' | undefined,
      }),
    }),
    new ServiceStep(bus, {
      type: 'ai.embed',
      subject: AiRuntimeSubjects.embeddings,
      required: ['input'],
      build: (i) => ({ model: i.model as string | undefined, input: typeof i.input === 'string' ? [i.input] : (i.input as string[]) }),
    }),
    new ServiceStep(bus, {
      type: 'kb.query',
      subject: KbWorkerSubjects.query,
      required: ['knowledge_base_id', 'query'],
      build: (i) => ({
        knowledgeBaseId: str(i.knowledge_base_id),
        query: str(i.query),
        topK: num(i.top_k),
        filter: i.filter as Record<string, unknown> | undefined,
        answer: i.answer as boolean | undefined,
      }),
    }),
    new ServiceStep(bus, {
      type: 'ai.agent',
      subject: AiRuntimeSubjects.agentsExecute,
      required: ['agent_id', 'input'],
      build: (i, context) => ({ agentId: str(i.agent_id), input: i.input, executionId: context.executionId }),
      // An agent that waits for a person's approval is not awaited by the execution (that would
      // hold a worker for as long as the person takes): the step fails, naming the run and task;
      // the agent run itself goes on once the task is decided (docs/ai.md).
      shape: (run) => {
        if (run.status !== 'waiting_approval') return run;
        throw new StepError(
          'agent_waiting_approval',
          `agent run ${run.id} waits for the approval task ${run.task_id ?? ''}: an ai.agent step does not wait for approvals, give the agent tools without requires_approval here`,
          false,
        );
      },
      // The agent's own time budget bounds it (AI_AGENT_TIME_BUDGET_MS); this only catches a lost answer.
      timeoutMs: 900_000,
    }),
  ];
}
