// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fieldsOf, initialValues, parseInput, problemsOf, type ObjectSchema } from './schema-fields';
import { SchemaFields } from './schema-form';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schema: ObjectSchema = {
  type: 'object',
  required: ['reason', 'amount', 'priority'],
  properties: {
    reason: { type: 'string', title: 'Reason', description: 'Why the refund is due', minLength: 3 },
    amount: { type: 'number', title: 'Amount', minimum: 0 },
    copies: { type: 'integer' },
    priority: { type: 'string', enum: ['low', 'high'], title: 'Priority' },
    urgent: { type: 'boolean', title: 'Urgent', default: true },
    tags: { type: 'array' },
  },
};

describe('fieldsOf, initialValues, parseInput, problemsOf', () => {
  it('gives one field per property, of the right kind, with required and enum options', () => {
    expect(fieldsOf(schema).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['reason', 'string', true],
      ['amount', 'number', true],
      ['copies', 'integer', false],
      ['priority', 'enum', true],
      ['urgent', 'boolean', false],
      ['tags', 'json', false],
    ]);
    expect(fieldsOf(schema)[3]?.options).toEqual(['low', 'high']);
    expect(fieldsOf(null)).toEqual([]);
  });

  it('starts from defaults, false for booleans without one, and what was given', () => {
    expect(initialValues(schema)).toEqual({ urgent: true });
    expect(initialValues({ properties: { ok: { type: 'boolean' } } }, {})).toEqual({ ok: false });
    expect(initialValues(schema, { reason: 'late' })).toEqual({ reason: 'late', urgent: true });
  });

  it('parses numbers as numbers, enum values as the enum’s own, empty as unset', () => {
    const [, amount, , priority] = fieldsOf(schema);
    expect(parseInput(amount, '12.5')).toBe(12.5);
    expect(parseInput(amount, '')).toBeUndefined();
    expect(parseInput(fieldsOf({ properties: { n: { enum: [1, 2] } } })[0], '2')).toBe(2);
    expect(parseInput(priority, 'high')).toBe('high');
  });

  it('reports missing required values, ranges and lengths', () => {
    expect(problemsOf(schema, {})).toEqual({ reason: 'required', amount: 'required', priority: 'required' });
    expect(problemsOf(schema, { reason: 'no', amount: -1, priority: 'low', copies: 1.5 })).toEqual({
      reason: 'must be at least 3 characters',
      amount: 'must be at least 0',
      copies: 'must be a whole number',
    });
    expect(problemsOf(schema, { reason: 'late', amount: 3, priority: 'low' })).toEqual({});
  });
});

describe('<SchemaFields>', () => {
  let container: HTMLDivElement;
  let root: Root;
  let seen: Record<string, unknown>;

  function Harness() {
    const [values, setValues] = useState<Record<string, unknown>>(initialValues(schema));
    seen = values;
    return <SchemaFields schema={schema} values={values} onChange={setValues} problems={problemsOf(schema, values)} />;
  }

  const byLabel = (text: string): HTMLInputElement => {
    const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.replace(' *', '').trim() === text);
    if (!label) throw new Error(`no label ${text}`);
    return container.querySelector(`#${CSS.escape(label.htmlFor)}`)!;
  };

  /** Sets a value as typing does: through the native setter, then the event React listens to. */
  const type = (element: HTMLInputElement | HTMLSelectElement, value: string, event = 'input') => {
    const proto = element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    act(() => {
      Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(element, value);
      element.dispatchEvent(new Event(event, { bubbles: true }));
    });
  };

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    act(() => root.render(<Harness />));
  });

  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  it('labels every input, marks the required ones, and describes fields and problems', () => {
    expect(byLabel('Reason').required).toBe(true);
    expect(byLabel('copies').required).toBe(false);
    expect(byLabel('Amount').type).toBe('number');
    expect(byLabel('Urgent').type).toBe('checkbox');
    const priority = byLabel('Priority') as unknown as HTMLSelectElement;
    expect([...priority.options].map((o) => o.value)).toEqual(['', 'low', 'high']);
    const described = byLabel('Reason').getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => container.querySelector(`#${CSS.escape(id)}`)?.textContent)).toEqual(['Why the refund is due', 'required']);
    expect(byLabel('Reason').getAttribute('aria-invalid')).toBe('true');
  });

  it('turns what is typed, chosen and ticked into typed values', () => {
    type(byLabel('Reason'), 'late delivery');
    type(byLabel('Amount'), '42');
    type(byLabel('Priority'), 'high', 'change');
    act(() => byLabel('Urgent').click());
    expect(seen).toEqual({ reason: 'late delivery', amount: 42, priority: 'high', urgent: false });
    expect(byLabel('Reason').getAttribute('aria-invalid')).toBeNull();
    type(byLabel('Amount'), '');
    expect(seen).not.toHaveProperty('amount');
  });
});
