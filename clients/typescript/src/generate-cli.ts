// `npm run generate:client [-- <gateway URL or OpenAPI JSON file>]`: regenerates clients/typescript/src/schema.ts
// from a running platform's merged description (default http://127.0.0.1:8080/v3/api-docs, what
// `npm start` runs) or from a saved document. It starts nothing itself. Send a key with
// PLATFORM_API_KEY when the platform's docs are not public.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCHEMA_FILE, generateSchema } from './generate.js';

const REPO_ROOT = resolve(import.meta.dirname, '../../../..');

async function load(source: string): Promise<object> {
  if (!/^https?:\/\//.test(source)) return JSON.parse(readFileSync(source, 'utf8')) as object;
  const url = new URL(source);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v3/api-docs';
  const apiKey = process.env.PLATFORM_API_KEY;
  const res = await fetch(url, { headers: apiKey ? { 'x-api-key': apiKey } : {} });
  if (!res.ok) throw new Error(`${url.href} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as object;
}

const source = process.argv[2] ?? 'http://127.0.0.1:8080/v3/api-docs';
try {
  const document = await load(source);
  const unavailable = (document as { info?: Record<string, unknown> }).info?.['x-unavailable-services'];
  if (unavailable) throw new Error(`services did not answer, their routes would be missing: ${JSON.stringify(unavailable)}`);
  const target = resolve(REPO_ROOT, SCHEMA_FILE);
  writeFileSync(target, await generateSchema(document));
  console.log(`wrote ${SCHEMA_FILE} from ${source}`);
} catch (error) {
  console.error(`generate:client: ${(error as Error).message}`);
  process.exit(1);
}
