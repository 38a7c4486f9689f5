import { useEffect, useState } from 'react';
import type { Credential } from '../shell/session';
import { useSession } from '../shell/session-context';
import { definitionSchema } from './definition-schema';

function headersFor(credential: Credential): Record<string, string> {
  return 'apiKey' in credential ? { 'x-api-key': credential.apiKey } : { authorization: `Bearer ${credential.token}`, 'x-selected-tenant': credential.tenant };
}

/**
 * The definition's JSON Schema from the run service's OpenAPI (`GET /v3/api-docs/run`, with the
 * signed-in credential); null until it arrives or when it cannot be had, and the editor then
 * checks JSON syntax only.
 */
export function useDefinitionSchema(): Record<string, unknown> | null {
  const { credential } = useSession();
  const [schema, setSchema] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    const aborted = new AbortController();
    fetch('/v3/api-docs/run', { headers: { accept: 'application/json', ...headersFor(credential) }, signal: aborted.signal })
      .then((res) => (res.ok ? res.json() : null))
      .then((doc: unknown) => setSchema(definitionSchema(doc)))
      .catch(() => setSchema(null));
    return () => aborted.abort();
  }, [credential]);
  return schema;
}
