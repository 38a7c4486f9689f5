import { expressionOf } from '../expressions.js';
import { SANDBOX_STACK_BYTES, SandboxPool, type SandboxPoolOptions } from './code/sandbox-pool.js';
import type { SandboxFailureCode } from './code/sandbox.protocol.js';
import { StepError, type StepContext, type StepDefinition, type StepExecutor, type StepProblem } from './step-executor.js';

export const MAX_CODE_BYTES = 64 * 1024;
export const MAX_CONSOLE_LINES = 100;
export const MAX_CONSOLE_LINE_BYTES = 2048;

/** The input of a code step once its expressions are evaluated (the OpenAPI shape). */
export interface CodeInput {
  /** JavaScript, the body of an async function: `return` gives the output. At most 64 KiB. */
  code: string;
  /** Any JSON value; the script sees it as the global `input`. */
  input?: unknown;
}

const FIELDS = new Set(['code', 'input']);

/** The StepError code of each sandbox failure; an abort stops the script like its own deadline does. */
const STEP_CODES: Record<Exclude<SandboxFailureCode, 'code_error'>, string> = {
  code_timeout: 'code_timeout',
  code_memory_limit: 'code_memory_limit',
  code_aborted: 'code_timeout',
  code_internal_error: 'code_internal_error',
};

/**
 * Runs a JavaScript snippet in QuickJS (WebAssembly) on a sandbox worker thread: no host objects,
 * no require/process/import, no timers or I/O, a fresh runtime per run, with memory, stack and CPU
 * limits from the settings. The script's output is its return value, as JSON.
 */
export class CodeStep implements StepExecutor {
  readonly type = 'code';
  private readonly pool: SandboxPool;

  constructor(options: SandboxPoolOptions & { pool?: SandboxPool } = {}) {
    this.pool = options.pool ?? new SandboxPool(options);
  }

  validate(step: StepDefinition): StepProblem[] {
    return checkCodeInput(step.input, true);
  }

  async execute(input: Record<string, unknown>, _step: StepDefinition, context: StepContext): Promise<unknown> {
    const problems = checkCodeInput(input, false);
    if (problems.length) throw new StepError('invalid_input', problems.map((p) => `${p.path} ${p.message}`).join('; '), false, { problems });
    const { code, input: scriptInput } = input as unknown as CodeInput;
    let inputJson: string;
    try {
      inputJson = JSON.stringify(scriptInput ?? null);
    } catch (error) {
      throw new StepError('invalid_input', `input.input is not JSON: ${(error as Error).message}`, false);
    }

    const { settings } = context;
    const result = await this.pool.run(
      {
        code,
        inputJson,
        timeoutMs: settings.codeTimeoutMs,
        memoryLimitBytes: settings.codeMemoryLimitBytes,
        maxStackBytes: SANDBOX_STACK_BYTES,
        maxLogLines: MAX_CONSOLE_LINES,
        maxLogLineBytes: MAX_CONSOLE_LINE_BYTES,
      },
      { signal: context.signal, onLog: (level, message) => context.log(level, message, { source: 'console' }) },
    );
    if (result.droppedLogLines > 0) {
      context.log('warn', `console output limited to ${MAX_CONSOLE_LINES} lines: ${result.droppedLogLines} more dropped`, { source: 'console' });
    }
    if (result.ok) return JSON.parse(result.outputJson) as unknown;
    if (result.code === 'code_error') throw new StepError('code_error', result.message, false, result.details);
    // A crashed worker says nothing about the script: a retry on a fresh worker may well succeed.
    throw new StepError(STEP_CODES[result.code], result.message, result.code === 'code_internal_error');
  }

  /** Stops the sandbox workers (Nest calls this on shutdown when the step is a provider). */
  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}

/** Every problem of a code step's input; at save time (`literalOnly`) expressions are skipped. */
export function checkCodeInput(input: unknown, literalOnly: boolean): StepProblem[] {
  const skip = (value: unknown) => literalOnly && expressionOf(value) !== undefined;
  if (input === undefined || input === null) return [{ path: 'input.code', message: 'is required' }];
  if (typeof input !== 'object' || Array.isArray(input)) return [{ path: 'input', message: 'must be an object' }];
  const problems: StepProblem[] = [];
  const fields = input as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!FIELDS.has(key)) problems.push({ path: `input.${key}`, message: 'is not a field of code (fields: code, input)' });
  const { code } = fields;
  if (code === undefined || code === null || code === '') problems.push({ path: 'input.code', message: 'is required' });
  else if (!skip(code)) {
    if (typeof code !== 'string') problems.push({ path: 'input.code', message: 'must be a string' });
    else if (Buffer.byteLength(code, 'utf8') > MAX_CODE_BYTES) problems.push({ path: 'input.code', message: `must be at most ${MAX_CODE_BYTES} bytes` });
  }
  return problems;
}
