import type { components } from '@platform-sdk/client';
import { problemsOf, type ObjectSchema } from '../forms/schema-fields';
import { SchemaFields } from '../forms/schema-form';
import { ErrorMessage, Loading } from '../shell/list-state';
import { useClient } from '../shell/session-context';
import { useAsync } from '../shell/use-async';

type Operation = components['schemas']['ConnectorOperationDto'];

/**
 * A connector step's `params`, edited in a form generated from its operation's input schema
 * (`GET /connections/{id}/operations`); the only step type whose input the API describes.
 */
export function ConnectorParams({
  connectionId,
  operationId,
  params,
  onChange,
}: {
  connectionId: string;
  operationId: string;
  params: Record<string, unknown>;
  onChange: (params: Record<string, unknown>) => void;
}) {
  const client = useClient();
  const operations = useAsync(
    () => client.list<Operation>(`/connections/${encodeURIComponent(connectionId)}/operations`, {}, { pageSize: 200 }).toArray(200),
    `operations:${connectionId}`,
  );
  if (operations.loading && !operations.value) return <Loading label="Reading the operation's schema…" />;
  if (operations.error) return <ErrorMessage message={operations.error} retry={operations.reload} />;
  const operation = operations.value?.find((o) => o.id === operationId);
  if (!operation) return <p className="muted">The connection has no operation “{operationId}”.</p>;
  const schema = operation.input_schema as ObjectSchema;
  return (
    <fieldset>
      <legend>Parameters of {operation.name}</legend>
      {operation.description && <p className="hint">{operation.description}</p>}
      <SchemaFields schema={schema} values={params} onChange={onChange} problems={problemsOf(schema, params)} />
    </fieldset>
  );
}
