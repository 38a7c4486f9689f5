import { useEffect, useState } from 'react';
import { useClient } from '../shell/session-context';
import { definitionSchema } from './definition-schema';

/**
 * The definition's JSON Schema from the run service's OpenAPI (`GET /v3/api-docs/run`, through the
 * SDK with the signed-in credential); null until it arrives or when it cannot be had, and the
 * editor then checks JSON syntax only.
 */
export function useDefinitionSchema(): Record<string, unknown> | null {
  const client = useClient();
  const [schema, setSchema] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    const aborted = new AbortController();
    client.api
      .GET('/v3/api-docs/{service}', { params: { path: { service: 'run' } }, signal: aborted.signal })
      .then(({ data }) => setSchema(data ? definitionSchema(data) : null))
      .catch(() => setSchema(null));
    return () => aborted.abort();
  }, [client]);
  return schema;
}
