import Mustache from 'mustache';

/** Every ASCII punctuation character is backslash-escaped: a variable's value shows literally in Markdown, HTML, mrkdwn and cards. */
export const escapeMarkdown = (value: unknown): string => String(value).replace(/[\\`*_{}[\]()#+\-.!|~<>&"'=:;,/?@$%^]/g, (c) => `\\${c}`);

/** The platform's own templates (`template` in a send); a send's own subject or body replaces the template's. */
export const BUILT_IN_TEMPLATES: Record<string, { subject: string; body: string }> = {
  execution_failed: {
    subject: 'Workflow {{workflow_name}} failed',
    body: 'The execution **{{execution_id}}** of workflow **{{workflow_name}}** failed at {{failed_at}}.\n\n**Error:** {{error_code}}: {{error_message}}{{#step_id}} (step {{step_id}}){{/step_id}}',
  },
  task_created: {
    subject: 'New task: {{task_title}}',
    body: 'A task was created for you: **{{task_title}}**.{{#due_at}}\n\nDue {{due_at}}.{{/due_at}}',
  },
  task_assigned: {
    subject: 'Task assigned: {{task_title}}',
    body: 'The task **{{task_title}}** was assigned to {{assignee}}.{{#due_at}}\n\nDue {{due_at}}.{{/due_at}}',
  },
  api_key_expiring: {
    subject: 'API key {{key_name}} expires soon',
    body: 'The API key **{{key_name}}** ({{key_prefix}}) expires at {{expires_at}}. Rotate it before then to avoid failed requests.',
  },
};

export class TemplateError extends Error {}

/**
 * Mustache, logic-less: in a Markdown body `{{name}}` is escaped (shown literally) and `{{{name}}}`
 * inserts the value as Markdown; a subject is plain text, so values go in as they are. An unclosed
 * section or a malformed tag is a TemplateError (a 400).
 */
export function renderTemplate(template: string, variables: Record<string, unknown>, as: 'markdown' | 'plain' = 'markdown'): string {
  try {
    return Mustache.render(template, variables, {}, { escape: as === 'markdown' ? escapeMarkdown : String });
  } catch (error) {
    throw new TemplateError((error as Error).message);
  }
}
