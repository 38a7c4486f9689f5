import escapeHtml from 'escape-html';
import type { FieldError } from '@platform/common';
import { isFinished, type RecentExecution } from '@platform/messaging';
import type { FormField } from './form-fields.js';

const e = (value: unknown): string => escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Inline styles only: the pages load nothing else (CSP default-src 'none'). */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:42rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.5}
label{display:block;font-weight:600;margin-top:1rem}input,select,textarea{font:inherit;padding:.4rem;width:100%;box-sizing:border-box;border:1px solid #666;border-radius:4px}
input[type=checkbox]{width:auto}button{font:inherit;margin-top:1.25rem;padding:.5rem 1.25rem;background:#0b57d0;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #f9a825;outline-offset:2px}.hint{color:#444;font-size:.9rem;margin:.2rem 0 0}
.error{color:#b3261e}[role=alert]{border:2px solid #b3261e;padding:.5rem 1rem;border-radius:4px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ccc}pre{background:#f3f3f3;padding:.75rem;overflow:auto;border-radius:4px}`;

export function page(title: string, body: string, refreshSeconds?: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}<title>${e(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function errorPage(status: number, message: string): string {
  return page('Not available', `<h1>Not available</h1><p role="alert">${e(message)}</p><p class="hint">Status ${status}</p>`);
}

function input(f: FormField, value: unknown, error: string | undefined): string {
  const id = `f-${f.name}`;
  const described = [f.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const aria = `${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}${f.required ? ' required aria-required="true"' : ''}`;
  const v = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  let control: string;
  if (f.kind === 'select') {
    control = `<select id="${id}" name="${e(f.name)}"${aria}><option value="">Choose…</option>${f.options
      .map((o) => `<option${o === v ? ' selected' : ''}>${e(o)}</option>`)
      .join('')}</select>`;
  } else if (f.kind === 'checkbox') {
    control = `<input type="checkbox" id="${id}" name="${e(f.name)}"${v === 'on' || v === 'true' ? ' checked' : ''}${aria}>`;
  } else if (f.kind === 'json') {
    control = `<textarea id="${id}" name="${e(f.name)}" rows="4"${aria}>${e(v)}</textarea>`;
  } else {
    const type = f.kind === 'integer' ? 'number" step="1' : f.kind === 'number' ? 'number" step="any' : f.kind;
    control = `<input type="${type}" id="${id}" name="${e(f.name)}" value="${e(v)}"${aria}>`;
  }
  return `<label for="${id}">${e(f.label)}${f.required ? ' <span aria-hidden="true">*</span>' : ''}</label>${control}${
    f.description ? `<p class="hint" id="${id}-hint">${e(f.description)}</p>` : ''
  }${error ? `<p class="error" id="${id}-error">${e(error)}</p>` : ''}`;
}

export function formPage(p: {
  title: string;
  description: string | null;
  action: string;
  submissionId: string;
  fields: FormField[];
  values?: Record<string, unknown>;
  errors?: FieldError[];
}): string {
  const errors = new Map((p.errors ?? []).map((x) => [x.field, x.message]));
  const summary = errors.size
    ? `<div role="alert"><p>Please correct ${errors.size === 1 ? 'this field' : 'these fields'}:</p><ul>${[...errors]
        .map(([f, m]) => `<li><a href="#f-${e(f)}">${e(p.fields.find((x) => x.name === f)?.label ?? f)}</a> ${e(m)}</li>`)
        .join('')}</ul></div>`
    : '';
  return page(
    p.title,
    `<h1>${e(p.title)}</h1>${p.description ? `<p>${e(p.description)}</p>` : ''}${summary}
<form method="post" action="${e(p.action)}" novalidate>
<input type="hidden" name="submission_id" value="${e(p.submissionId)}">
${p.fields.map((f) => input(f, p.values?.[f.name], errors.get(f.name))).join('\n')}
<button type="submit">Submit</button></form>`,
  );
}

export function resultPage(title: string, run: { id: string; status: string; output: unknown; error: { message: string } | null }, backHref: string): string {
  const done = isFinished(run.status);
  const body = !done
    ? `<p role="status">Your request is being processed (status: <strong data-status="${e(run.status)}">${e(run.status)}</strong>). This page refreshes by itself.</p>`
    : run.status === 'succeeded'
      ? `<p role="status">Done: <strong data-status="succeeded">succeeded</strong>.</p><h2>Result</h2><pre data-output>${e(JSON.stringify(run.output, null, 2))}</pre>`
      : `<p role="alert">The run ended: <strong data-status="${e(run.status)}">${e(run.status)}</strong>.${run.error ? ` ${e(run.error.message)}` : ''}</p>`;
  return page(title, `<h1>${e(title)}</h1>${body}<p class="hint">Run ${e(run.id)}</p><p><a href="${e(backHref)}">Send another</a></p>`, done ? undefined : 1);
}

export function runsPage(title: string, runs: RecentExecution[]): string {
  const rows = runs
    .map(
      (r) =>
        `<tr><td>${e(r.created_at)}</td><td data-status="${e(r.status)}">${e(r.status)}</td><td>${e(r.finished_at ?? '')}</td><td><code>${e(r.id)}</code></td></tr>`,
    )
    .join('');
  return page(
    title,
    `<h1>${e(title)}</h1>${
      runs.length
        ? `<table><caption>Your latest runs</caption><thead><tr><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Finished</th><th scope="col">Run</th></tr></thead><tbody>${rows}</tbody></table>`
        : '<p>No runs yet.</p>'
    }`,
  );
}

type WidgetView = { title: string; type: string; data: unknown };
type Rows = Record<string, unknown>[];

function table(caption: string, columns: [string, string][], rows: Rows): string {
  if (!rows.length) return `<p>${e(caption)}: none in this period.</p>`;
  const head = columns.map(([, label]) => `<th scope="col">${e(label)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map(([key]) => `<td>${e(r[key] ?? '')}</td>`).join('')}</tr>`).join('');
  return `<table><caption>${e(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Each widget as text and tables a screen reader can read: no charts, no scripts. */
function widgetBody(w: WidgetView): string {
  const d = w.data as Record<string, unknown>;
  switch (w.type) {
    case 'executions_per_day':
      return `<p>${e(d.total)} executions.</p>${table(
        w.title,
        [
          ['date', 'Day'],
          ['total', 'Total'],
          ['succeeded', 'Succeeded'],
          ['failed', 'Failed'],
          ['timed_out', 'Timed out'],
          ['cancelled', 'Cancelled'],
        ],
        d.days as Rows,
      )}`;
    case 'failure_rate':
      return `<p><strong data-value>${e((Number(d.rate) * 100).toFixed(1))} %</strong> of ${e(d.finished)} finished executions failed (${e(d.failed)}).</p>`;
    case 'slowest_workflows':
      return table(
        w.title,
        [
          ['workflow_id', 'Workflow'],
          ['avg_ms', 'Average (ms)'],
          ['max_ms', 'Slowest (ms)'],
          ['finished', 'Finished'],
        ],
        d.workflows as Rows,
      );
    case 'most_failing_workflows':
      return table(
        w.title,
        [
          ['workflow_id', 'Workflow'],
          ['failed', 'Failed'],
          ['total', 'Executions'],
        ],
        d.workflows as Rows,
      );
    case 'usage_quota':
      return table(
        `${w.title} (plan ${String(d.plan)}, until ${String(d.period_end)})`,
        [
          ['metric', 'Metric'],
          ['used', 'Used'],
          ['included', 'Included'],
          ['limit', 'Limit'],
        ],
        d.metrics as Rows,
      );
    default:
      return `<p><strong data-value>${e(d.open ?? '')}</strong> open.</p>`;
  }
}

export function dashboardPage(title: string, widgets: WidgetView[]): string {
  const section = (w: WidgetView) => `<section data-widget="${e(w.type)}"><h2>${e(w.title)}</h2>${widgetBody(w)}</section>`;
  return page(title, `<h1>${e(title)}</h1><p class="hint">The last 30 days.</p>${widgets.map(section).join('')}`);
}
