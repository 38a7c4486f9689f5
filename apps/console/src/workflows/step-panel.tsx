import { useState } from 'react';
import type { WorkflowStep } from '@platform-sdk/client';
import { ConnectorParams } from './connector-params';
import { updateStep, type Definition } from './definition';

/** The selected step: its id, type and input (as JSON), applied to the definition on "Apply". */
export function StepPanel({
  step,
  definition,
  onChange,
  onRenamed,
}: {
  step: WorkflowStep;
  definition: Definition;
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
