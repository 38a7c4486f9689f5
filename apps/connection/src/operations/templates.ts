/**
 * The placeholders of connector definitions: `{{input.x}}` and `{{settings.x}}` (dotted paths),
 * `{{input}}` for the whole input. A string that is exactly one placeholder takes the value as it
 * is (an object stays an object; undefined drops the field); inside a longer string the value is
 * interpolated, URL-encoded in paths. Nothing else is evaluated: definitions hold no code.
 */
export interface TemplateScope {
  input: Record<string, unknown>;
  settings: Record<string, unknown>;
}

const EXACT = /^\{\{\s*((?:input|settings)(?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/;
const INSIDE = /\{\{\s*((?:input|settings)(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

export function lookup(scope: TemplateScope, path: string): unknown {
  let value: unknown = scope;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Renders a template value; undefined means "leave the field out". */
export function render(template: unknown, scope: TemplateScope): unknown {
  if (typeof template === 'string') return renderString(template, scope, (v) => v);
  if (Array.isArray(template)) return template.map((item) => render(item, scope)).filter((item) => item !== undefined);
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      const rendered = render(value, scope);
      if (rendered !== undefined) out[key] = rendered;
    }
    return out;
  }
  return template;
}

/** A path: an exact placeholder is taken as it is (the generic connector's `{{input.path}}`), pieces are URL-encoded. */
export function renderPath(template: string, scope: TemplateScope): string {
  const value = renderString(template, scope, encodeURIComponent);
  return typeof value === 'string' ? value : '';
}

function renderString(template: string, scope: TemplateScope, encode: (value: string) => string): unknown {
  const exact = EXACT.exec(template);
  if (exact) return lookup(scope, exact[1]);
  return template.replace(INSIDE, (_, path: string) => {
    const value = lookup(scope, path);
    if (value === undefined || value === null) return '';
    return encode(scalarText(value));
  });
}

/** `application/x-www-form-urlencoded` the way Stripe and Rails read nested values: `metadata[key]=v`, `items[0][price]=p`. */
export function formEncode(value: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach((item, i) => add(`${prefix}[${i}]`, item));
    else if (typeof v === 'object') for (const [k, inner] of Object.entries(v)) add(`${prefix}[${k}]`, inner);
    else params.append(prefix, scalarText(v));
  };
  for (const [key, v] of Object.entries(value)) add(key, v);
  return params.toString();
}

/** A value as text: scalars as themselves, anything else as JSON. */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}
