import type { Principal } from '@platform/auth';
import type { TaskRow } from './task.record.js';

/** Who may decide a task: allowed, denied, or allowed when the user is in the team (asked of the account service). */
export type CompletionRule = { allowed: true } | { allowed: false } | { teamCheck: string };

/**
 * A tenant key (its `tasks:write` checked at the route) may complete any task of its tenant. A
 * user may complete a task assigned to them, to a team they are in, or to nobody. A customer key
 * may complete its customer's tasks (assigned to the customer, or to nobody in its scope).
 */
export function completionRule(p: Pick<Principal, 'kind' | 'subject' | 'scopeId'>, task: Pick<TaskRow, 'assignee_type' | 'assignee_id'>): CompletionRule {
  if (p.kind === 'tenant_key') return { allowed: true };
  if (!task.assignee_type || !task.assignee_id) return { allowed: true };
  if (p.kind === 'customer_key') return { allowed: task.assignee_type === 'customer' && task.assignee_id === p.scopeId };
  if (task.assignee_type === 'user') return { allowed: task.assignee_id === p.subject };
  if (task.assignee_type === 'team') return { teamCheck: task.assignee_id };
  return { allowed: false };
}

/** How `completed_by` names who decided: a user's id, `api_key:<id>`, or `link:<id>`. */
export function completerOf(p: Pick<Principal, 'kind' | 'subject'>): string {
  return p.kind === 'user' ? p.subject : `api_key:${p.subject}`;
}
