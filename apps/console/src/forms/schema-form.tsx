import { useId, type ReactNode } from 'react';
import { fieldsOf, parseInput, type Field, type ObjectSchema } from './schema-fields';

/**
 * The inputs of an object JSON Schema (strings, numbers, integers, booleans, enums; anything else
 * as JSON), each labelled with its title and described by its description. Controlled: `values`
 * in, `onChange(next)` out; `problems` (from `problemsOf`) are shown beside their fields.
 */
export function SchemaFields({
  schema,
  values,
  onChange,
  problems = {},
}: {
  schema: ObjectSchema | null | undefined;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  problems?: Record<string, string>;
}) {
  const prefix = useId();
  const fields = fieldsOf(schema);
  if (fields.length === 0) return <p className="muted">No fields.</p>;
  const set = (field: Field, value: unknown) => {
    const next = { ...values };
    if (value === undefined) delete next[field.name];
    else next[field.name] = value;
    onChange(next);
  };
  return (
    <div className="schema-fields">
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          id={`${prefix}-${field.name}`}
          field={field}
          value={values[field.name]}
          problem={problems[field.name]}
          onChange={(v) => set(field, v)}
        />
      ))}
    </div>
  );
}

function FieldInput({
  id,
  field,
  value,
  problem,
  onChange,
}: {
  id: string;
  field: Field;
  value: unknown;
  problem?: string;
  onChange: (value: unknown) => void;
}) {
  const hintId = field.description ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  const common = { id, required: field.required, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy };
  const text = inputText(value);

  let input: ReactNode;
  if (field.kind === 'boolean') {
    return (
      <div className="field">
        <label className="inline" htmlFor={id}>
          <input {...common} required={false} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {field.label}
        </label>
        {hintId && (
          <p className="hint" id={hintId}>
            {field.description}
          </p>
        )}
        {problem && (
          <p className="field-problem" id={problemId}>
            {problem}
          </p>
        )}
      </div>
    );
  }
  if (field.kind === 'enum') {
    input = (
      <select {...common} value={text} onChange={(e) => onChange(parseInput(field, e.target.value))}>
        <option value="">{field.required ? 'Choose…' : '—'}</option>
        {field.options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'number' || field.kind === 'integer') {
    input = (
      <input
        {...common}
        type="number"
        step={field.kind === 'integer' ? 1 : 'any'}
        min={field.schema.minimum}
        max={field.schema.maximum}
        value={text}
        onChange={(e) => onChange(parseInput(field, e.target.value))}
      />
    );
  } else if (field.kind === 'text' || field.kind === 'json') {
    input = (
      <textarea
        {...common}
        rows={field.kind === 'json' ? 3 : 4}
        value={text}
        onChange={(e) => onChange(parseInput(field, e.target.value))}
        spellCheck={field.kind !== 'json'}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type={field.schema.format === 'email' ? 'email' : field.schema.format === 'uri' ? 'url' : field.schema.format === 'date' ? 'date' : 'text'}
        minLength={field.schema.minLength}
        maxLength={field.schema.maxLength}
        value={text}
        onChange={(e) => onChange(parseInput(field, e.target.value))}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {hintId && (
        <p className="hint" id={hintId}>
          {field.description}
        </p>
      )}
      {problem && (
        <p className="field-problem" id={problemId}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** A value as an input shows it: strings as they are, numbers and booleans as text, anything else as JSON. */
function inputText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
