import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseDocument } from 'yaml';
import { UsageError } from '../cli-errors.js';

/** A schedule, event or webhook trigger declared beside its workflow, matched by `name` within it. */
export interface TriggerSpec {
  name: string;
  type: 'schedule' | 'event' | 'webhook';
  enabled?: boolean;
  input?: Record<string, unknown> | string | null;
  schedule?: Record<string, unknown>;
  event?: Record<string, unknown>;
  /** A webhook trigger: the name of a webhook declared in the folder. */
  webhook?: string;
}

/** An inbound webhook that starts its workflow, matched by `name` within it. */
export interface WebhookSpec {
  name: string;
  verification: { type: string; header?: string };
  response?: { mode: string; timeout_ms?: number };
  enabled?: boolean;
}

/** One file of the folder: a workflow, matched by its `name`, with what is declared beside it. */
export interface WorkflowSpec {
  name: string;
  description?: string | null;
  status?: 'active' | 'disabled';
  input_schema?: Record<string, unknown> | null;
  settings?: Record<string, unknown>;
  steps: Record<string, unknown>[];
  triggers?: TriggerSpec[];
  webhooks?: WebhookSpec[];
}

export interface WorkflowFile {
  /** As given on the command line joined with the file name, for messages. */
  file: string;
  format: 'yaml' | 'json';
  spec: WorkflowSpec;
}

/** What is wrong with a file: where in it (`steps[1].type`, `triggers[0].schedule`) and why. */
export interface FileProblem {
  file: string;
  path: string;
  message: string;
}

const EXTENSIONS: Record<string, 'yaml' | 'json'> = { '.yaml': 'yaml', '.yml': 'yaml', '.json': 'json' };
const WORKFLOW_FIELDS = ['name', 'description', 'status', 'input_schema', 'settings', 'steps', 'triggers', 'webhooks'];
const TRIGGER_FIELDS = ['name', 'type', 'enabled', 'input', 'schedule', 'event', 'webhook'];
const WEBHOOK_FIELDS = ['name', 'verification', 'response', 'enabled'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The workflow files of `dir` (`*.yaml`, `*.yml`, `*.json`, not hidden ones), sorted by name. */
export function listWorkflowFiles(dir: string): { file: string; format: 'yaml' | 'json' }[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && EXTENSIONS[extname(name).toLowerCase()] && statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => ({ file: join(dir, name), format: EXTENSIONS[extname(name).toLowerCase()] }));
}

function parse(file: string, format: 'yaml' | 'json', text: string): { value?: unknown; problems: FileProblem[] } {
  if (format === 'json') {
    try {
      return { value: JSON.parse(text), problems: [] };
    } catch (error) {
      return { problems: [{ file, path: '(file)', message: `not valid JSON: ${(error as Error).message}` }] };
    }
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    return {
      problems: doc.errors.map((e) => ({
        file,
        path: e.linePos ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '(file)',
        message: `not valid YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    };
  }
  return { value: doc.toJS(), problems: [] };
}

function unknownFields(value: Record<string, unknown>, known: string[], at: string, problem: (path: string, message: string) => void): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) problem(`${at}${at ? '.' : ''}${key}`, `is not a known field (known: ${known.join(', ')})`);
}

function checkTrigger(t: unknown, at: string, webhookNames: Set<string>, problem: (path: string, message: string) => void): void {
  if (!isObject(t)) return problem(at, 'must be an object');
  unknownFields(t, TRIGGER_FIELDS, at, problem);
  if (typeof t.name !== 'string' || !t.name) problem(`${at}.name`, 'is required: the name the trigger is matched by');
  if (!['schedule', 'event', 'webhook'].includes(t.type as string)) problem(`${at}.type`, 'must be schedule, event or webhook');
  if (t.type === 'schedule' && !isObject(t.schedule)) problem(`${at}.schedule`, 'is required for a schedule trigger: { cron } or { interval_seconds }');
  if (t.type === 'event' && !isObject(t.event)) problem(`${at}.event`, 'is required for an event trigger: { type, filter? }');
  if (t.type === 'webhook' && (typeof t.webhook !== 'string' || !webhookNames.has(t.webhook))) {
    problem(`${at}.webhook`, 'must name a webhook declared in this folder');
  }
  if (t.enabled !== undefined && typeof t.enabled !== 'boolean') problem(`${at}.enabled`, 'must be true or false');
  if (t.input !== undefined && t.input !== null && typeof t.input !== 'string' && !isObject(t.input)) {
    problem(`${at}.input`, 'must be an object or a JSONata expression (a string)');
  }
}

function checkWebhook(w: unknown, at: string, problem: (path: string, message: string) => void): void {
  if (!isObject(w)) return problem(at, 'must be an object');
  unknownFields(w, WEBHOOK_FIELDS, at, problem);
  if (typeof w.name !== 'string' || !w.name) problem(`${at}.name`, 'is required: the name the webhook is matched by');
  if (!isObject(w.verification) || typeof w.verification.type !== 'string') problem(`${at}.verification`, 'is required: { type: hmac | token | none }');
  else if (w.verification.type === 'token' && typeof w.verification.header !== 'string') {
    problem(`${at}.verification.header`, 'is required for a token: the header that carries it');
  }
  if (w.response !== undefined && (!isObject(w.response) || typeof w.response.mode !== 'string')) problem(`${at}.response`, 'must be { mode: async | sync }');
  if (w.enabled !== undefined && typeof w.enabled !== 'boolean') problem(`${at}.enabled`, 'must be true or false');
}

/** The shape of one file, checked here; the steps themselves are checked by the platform. */
export function checkSpec(file: string, value: unknown, folderWebhooks: Set<string>): FileProblem[] {
  const problems: FileProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ file, path, message });
  if (!isObject(value)) return [{ file, path: '(file)', message: 'must hold one workflow: an object with name and steps' }];
  unknownFields(value, WORKFLOW_FIELDS, '', problem);
  if (typeof value.name !== 'string' || !value.name.trim()) problem('name', 'is required: the name the workflow is matched by');
  if (!Array.isArray(value.steps) || value.steps.length === 0) problem('steps', 'is required: a non-empty list of steps');
  if (value.status !== undefined && value.status !== 'active' && value.status !== 'disabled') problem('status', 'must be active or disabled');
  if (value.description !== undefined && value.description !== null && typeof value.description !== 'string') problem('description', 'must be a string');
  if (value.settings !== undefined && !isObject(value.settings)) problem('settings', 'must be an object');
  if (value.input_schema !== undefined && value.input_schema !== null && !isObject(value.input_schema)) problem('input_schema', 'must be an object');
  for (const [key, check] of [
    ['webhooks', (w: unknown, at: string) => checkWebhook(w, at, problem)],
    ['triggers', (t: unknown, at: string) => checkTrigger(t, at, folderWebhooks, problem)],
  ] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problem(key, 'must be a list');
      continue;
    }
    const names = new Map<string, number>();
    list.forEach((item: unknown, i) => {
      check(item, `${key}[${i}]`);
      const name = isObject(item) ? item.name : undefined;
      if (typeof name !== 'string') return;
      if (names.has(name)) problem(`${key}[${i}].name`, `'${name}' is also the name of ${key}[${names.get(name)}]`);
      names.set(name, i);
    });
  }
  return problems;
}

/** Every workflow file of `dir`, parsed and checked; problems name the file and the path in it. */
export function readWorkflowFolder(dir: string): { files: WorkflowFile[]; problems: FileProblem[] } {
  const parsed = listWorkflowFiles(dir).map(({ file, format }) => ({ file, format, ...parse(file, format, readFileSync(file, 'utf8')) }));
  const webhookNames = new Set(
    parsed.flatMap((p) =>
      isObject(p.value) && Array.isArray(p.value.webhooks) ? p.value.webhooks.map((w: unknown) => (isObject(w) ? w.name : undefined)) : [],
    ),
  );
  webhookNames.delete(undefined);
  const problems: FileProblem[] = [];
  const files: WorkflowFile[] = [];
  const byName = new Map<string, string>();
  for (const p of parsed) {
    if (p.problems.length) {
      problems.push(...p.problems);
      continue;
    }
    const found = checkSpec(p.file, p.value, webhookNames as Set<string>);
    problems.push(...found);
    if (found.length) continue;
    const spec = p.value as WorkflowSpec;
    const other = byName.get(spec.name);
    if (other) problems.push({ file: p.file, path: 'name', message: `'${spec.name}' is also the name of the workflow in ${other}` });
    byName.set(spec.name, p.file);
    files.push({ file: p.file, format: p.format, spec });
  }
  return { files, problems };
}
