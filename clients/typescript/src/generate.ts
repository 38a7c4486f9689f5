import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** Where the generated types live, relative to the repository root. */
export const SCHEMA_FILE = 'clients/typescript/src/schema.ts';

const HEADER = `// Generated from the gateway's merged OpenAPI description (/v3/api-docs) by openapi-typescript.
// Do not edit: run \`npm run generate:client\` against a running platform after a route changes.
/* eslint-disable */
`;

/** The TypeScript types (`paths`, `components`, `operations`) of an OpenAPI document. */
export async function generateSchema(document: object): Promise<string> {
  // openapi-typescript resolves and may annotate the document: it gets a copy.
  const ast = await openapiTS(structuredClone(document) as OpenAPI3, { alphabetize: false, exportType: false });
  return `${HEADER}${astToString(ast)}`;
}

/** Ignores formatting (a later Prettier pass, line endings) when comparing generated types. */
export function sameTypes(a: string, b: string): boolean {
  const normalize = (text: string) =>
    text
      .replace(/\/\/[^\n]*\n/g, '')
      .replace(/[\s;,]+/g, '')
      .replace(/'/g, '"');
  return normalize(a) === normalize(b);
}
