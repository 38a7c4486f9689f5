import type { TaskAssignee, TaskExpiryPolicy } from '@platform/messaging';

/** What an approval or form step asks of the task service, read from its evaluated input. */
export interface HumanTaskSpec {
  title: string;
  description: string | null;
  assignee: TaskAssignee | null;
  form: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  dueAt: string | null;
  onExpiry: TaskExpiryPolicy | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_DUE_SECONDS = 366 * 24 * 3600;

/** `{ user_id }`, `{ team_id }` or `{ customer_id }` (exactly one, a UUID); `customers` false for escalation targets. */
function readAssignee(value: unknown, where: string, customers = true): TaskAssignee {
  const kinds = customers ? ['user_id', 'team_id', 'customer_id'] : ['user_id', 'team_id'];
  if (!isObject(value)) throw new Error(`${where} must be an object with one of ${kinds.join(', ')}`);
  const keys = Object.keys(value);
  if (keys.length !== 1 || !kinds.includes(keys[0])) throw new Error(`${where} must have exactly one of ${kinds.join(', ')}`);
  if (typeof value[keys[0]] !== 'string' || !UUID.test(value[keys[0]] as string)) throw new Error(`${where}.${keys[0]} must be a UUID`);
  return { [keys[0]]: value[keys[0]] };
}

function readExpiry(value: unknown): TaskExpiryPolicy {
  if (value === 'reject' || value === 'fail') return value;
  if (!isObject(value) || !('escalate_to' in value)) throw new Error('on_expiry must be "reject", "fail" or { escalate_to, extend_seconds }');
  const extend = value.extend_seconds;
  if (typeof extend !== 'number' || !Number.isInteger(extend) || extend < 1 || extend > MAX_DUE_SECONDS) {
    throw new Error('on_expiry.extend_seconds must be a whole number of seconds, at least 1');
  }
  return { escalate_to: readAssignee(value.escalate_to, 'on_expiry.escalate_to', false), extend_seconds: extend };
}

function readDue(input: Record<string, unknown>, now: Date): string | null {
  if (input.due_in_seconds !== undefined && input.due_at !== undefined) throw new Error('give due_in_seconds or due_at, not both');
  if (input.due_in_seconds !== undefined) {
    const s = input.due_in_seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s <= 0 || s > MAX_DUE_SECONDS) throw new Error('due_in_seconds must be a positive number of seconds');
    return new Date(now.getTime() + s * 1000).toISOString();
  }
  if (input.due_at !== undefined) {
    const at = typeof input.due_at === 'string' ? new Date(input.due_at) : new Date(NaN);
    if (Number.isNaN(at.getTime())) throw new Error('due_at must be an ISO 8601 time');
    return at.toISOString();
  }
  return null;
}

/**
 * Reads an approval or form step's evaluated input; throws an Error naming the field at fault.
 * `input: { title, description?, assignee?, form?, context?, due_in_seconds? | due_at?, on_expiry? }`;
 * a form step needs `form` (a JSON Schema object).
 */
export function readHumanTask(type: string, input: unknown, now = new Date()): HumanTaskSpec {
  if (!isObject(input)) throw new Error('input must be an object');
  if (typeof input.title !== 'string' || input.title.length < 1 || input.title.length > 500) throw new Error('title must be a string of 1-500 characters');
  if (input.description != null && typeof input.description !== 'string') throw new Error('description must be a string');
  if (input.form != null && !isObject(input.form)) throw new Error('form must be a JSON Schema object');
  if (type === 'form' && !isObject(input.form)) throw new Error('a form step needs form: the JSON Schema of the data to collect');
  if (input.context != null && !isObject(input.context)) throw new Error('context must be an object of the values to show');
  const dueAt = readDue(input, now);
  const onExpiry = input.on_expiry == null ? null : readExpiry(input.on_expiry);
  if (onExpiry && !dueAt) throw new Error('on_expiry needs a deadline: due_in_seconds or due_at');
  return {
    title: input.title,
    description: (input.description as string | undefined) ?? null,
    assignee: input.assignee == null ? null : readAssignee(input.assignee, 'assignee'),
    form: (input.form as Record<string, unknown> | undefined) ?? null,
    context: (input.context as Record<string, unknown> | undefined) ?? null,
    dueAt,
    onExpiry,
  };
}
