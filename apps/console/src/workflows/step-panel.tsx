import { useState } from 'react';
import type { WorkflowStep } from '@platform-sdk/client';
import { problemsOf, type ObjectSchema } from '../forms/schema-fields';
import { SchemaFields } from '../forms/schema-form';
import { ConnectorParams } from './connector-params';
import { stepInputSchema, withExpressions } from './definition-schema';
import { updateStep, type Definition } from './definition';

/**
 * The selected step: its id, type and input, applied to the definition on "Apply". The input is
 * JSON, and for a built-in type the run service describes (`schema`: the definition's, from its
 * OpenAPI) also a form generated from that type's input schema, kept in step with the JSON.
 */
export function StepPanel({
  step,
  definition,
  schema,
  onChange,
  onRenamed,
}: {
  step: WorkflowStep;
  definition: Definition;
  schema: Record<string, unknown> | null;
  onChange: (next: Definition) => void;
  onRenamed: (id: string) => void;
}) {
  const [id, setId] = useState(step.id);
  const [type, setType] = useState(step.type);
  const [input, setInput] = useState(JSON.stringify(step.input ?? {}, null, 2));
  const [error, setError] = useState<string | null>(null);

  // A connector step names a connection and an operation: its params get a form from the operation's schema.
  const current = parseObject(input);
  const connector =
    type === 'connector' && current && typeof current.connection_id === 'string' && typeof current.operation === 'string'
      ? { connectionId: current.connection_id, operationId: current.operation, params: (current.params ?? {}) as Record<string, unknown> }
      : null;

  const described = type === 'connector' ? null : stepInputSchema(schema, type);
  const inputSchema = described && current ? (withExpressions(described, current) as ObjectSchema) : null;

  const apply = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (e) {
      setError(`Input is not JSON: ${(e as Error).message}`);
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setError('Input must be a JSON object');
      return;
    }
    setError(null);
    onChange(updateStep(definition, step.id, { id, type, input: parsed as Record<string, unknown> }));
    onRenamed(id);
  };

  return (
    <form
      className="panel step-panel"
      aria-label={`Step ${step.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <h2>Step {step.id}</h2>
      <label>
        Step id
        <input value={id} onChange={(e) => setId(e.target.value)} required pattern="[A-Za-z0-9_-]+" />
      </label>
      <label>
        Step type
        <input value={type} onChange={(e) => setType(e.target.value)} required />
      </label>
      <label>
        Step input (JSON)
        <textarea value={input} onChange={(e) => setInput(e.target.value)} rows={5} spellCheck={false} />
      </label>
      {inputSchema && current && (
        <fieldset>
          <legend>Input of {type}</legend>
          {typeof described?.description === 'string' && <p className="hint">{described.description}</p>}
          <SchemaFields
            schema={inputSchema}
            values={current}
            onChange={(values) => setInput(JSON.stringify(values, null, 2))}
            problems={problemsOf(inputSchema, current)}
          />
        </fieldset>
      )}
      {connector && current && (
        <ConnectorParams
          connectionId={connector.connectionId}
          operationId={connector.operationId}
          params={connector.params}
          onChange={(params) => setInput(JSON.stringify({ ...current, params }, null, 2))}
        />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit">Apply to step</button>
    </form>
  );
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
