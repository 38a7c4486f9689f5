import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ConnectorDefinition } from '@platform/messaging';
import { CONNECTOR_DEFINITION_SCHEMA } from './definition.schema.js';

// ajv-formats is CommonJS: under ESM its function is the default export's default.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export interface DefinitionProblem {
  field: string;
  message: string;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
// Typed as the definition it checks: the schema and the ConnectorDefinition interface describe the same shape.
const checkShape = ajv.compile<ConnectorDefinition>(CONNECTOR_DEFINITION_SCHEMA as Record<string, unknown>);

/**
 * Every problem of a connector definition: its shape (the JSON Schema), then what a schema cannot
 * say: operation ids unique, each operation's schemas compile, HTTP operations have a request and
 * a base URL to go to, the test operation exists.
 */
export function validateDefinition(value: unknown): DefinitionProblem[] {
  if (!checkShape(value)) return (checkShape.errors ?? []).map(problem);
  const def = value;
  const problems: DefinitionProblem[] = [];
  const ids = new Set<string>();
  def.operations.forEach((op, i) => {
    if (ids.has(op.id)) problems.push({ field: `operations[${i}].id`, message: `duplicates ${op.id}` });
    ids.add(op.id);
    for (const key of ['input_schema', 'output_schema'] as const) {
      try {
        // Only whether it compiles: formats are not checked here (and not warned about on stderr).
        new Ajv({ strict: false, validateFormats: false }).compile(op[key]);
      } catch (error) {
        problems.push({ field: `operations[${i}].${key}`, message: `is not a valid JSON Schema: ${(error as Error).message}` });
      }
    }
    if (def.driver === 'http' && !op.http) problems.push({ field: `operations[${i}].http`, message: 'is required for an http connector' });
  });
  if (!ids.has(def.test_operation.operation)) problems.push({ field: 'test_operation.operation', message: `names no operation of ${def.id}` });
  if (def.driver === 'http' && def.base_url === null && !(def.settings_schema.required as string[] | undefined)?.includes('base_url')) {
    problems.push({ field: 'base_url', message: 'is null, so settings_schema must require base_url' });
  }
  return problems;
}

function problem(e: ErrorObject): DefinitionProblem {
  const field = e.instancePath
    .split('/')
    .slice(1)
    .reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
  const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
  return { field: field || '(definition)', message: `${e.message ?? 'is invalid'}${extra}` };
}
