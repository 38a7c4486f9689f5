#!/usr/bin/env node
// `npm run check`: a database function's current text lives in exactly one place,
// apps/<svc>/src/<feature>/sql/<name>.sql, which database setup applies after the migrations
// (libs/db database-functions.ts). So a migration may not define a function (the ones listed
// below did before that rule and keep their historical text: they already ran on deployed
// databases), and each function file defines the one function it is named after, in its app's
// schema, once across the app.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const HISTORICAL = new Set([
  'apps/notification/src/migrations/1766500000000-NotificationHotPath.ts',
  'apps/run/src/migrations/1764300000000-EngineHotPath.ts',
  'apps/run/src/migrations/1764400000000-ExecutionRequestId.ts',
  'apps/run/src/migrations/1766000002000-ResolveTaskStep.ts',
  'apps/run/src/migrations/1766300001000-MeteredStart.ts',
  'apps/run/src/migrations/1766400000000-OneTripResume.ts',
  'apps/storage/src/migrations/1764000003000-CreateDataTables.ts',
  'apps/subscription/src/migrations/1766100000000-CreateSubscriptions.ts',
  'apps/task/src/migrations/1766000001000-TaskHotPath.ts',
  'apps/trigger/src/migrations/1766400001000-ListenerLookup.ts',
  'apps/webhook/src/migrations/1765000001000-WebhookHotPath.ts',
  'apps/webhook/src/migrations/1765000002000-DeferredRunStarts.ts',
  'apps/webhook/src/migrations/1766500001000-StartsByKey.ts',
]);
const DEFINES = /create\s+(or\s+replace\s+)?function|enterTenantFunctionStatements\s*\(/i;
const HEADER = /create\s+or\s+replace\s+function\s+([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\s*\(/gi;

const problems = [];
const files = (dir, match) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && match(e))
    .map((e) => join(e.parentPath, e.name));

for (const app of readdirSync(join(ROOT, 'apps'))) {
  const src = join(ROOT, 'apps', app, 'src');
  let all;
  try {
    all = files(src, () => true);
  } catch {
    continue;
  }
  for (const file of all.filter((f) => f.includes('/migrations/') && f.endsWith('.ts'))) {
    const rel = relative(ROOT, file);
    if (!HISTORICAL.has(rel) && DEFINES.test(readFileSync(file, 'utf8'))) {
      problems.push(`${rel}: defines a database function; put its text in <feature>/sql/<name>.sql instead (see docs/architecture.md, Database functions)`);
    }
  }
  const schemas = new Set();
  const seen = new Map();
  for (const file of all.filter((f) => f.endsWith('.sql') && f.split('/').at(-2) === 'sql')) {
    const rel = relative(ROOT, file);
    const name = file.split('/').at(-1).slice(0, -'.sql'.length);
    const headers = [...readFileSync(file, 'utf8').matchAll(HEADER)];
    if (headers.length !== 1 || headers[0][2] !== name) {
      problems.push(
        `${rel}: must hold exactly one "create or replace function <schema>.${name}(", found ${headers.map((h) => `${h[1]}.${h[2]}`).join(', ') || 'none'}`,
      );
      continue;
    }
    schemas.add(headers[0][1]);
    if (seen.has(name)) problems.push(`${rel}: ${name} is also defined in ${seen.get(name)}`);
    seen.set(name, rel);
  }
  if (schemas.size > 1) problems.push(`apps/${app}: function files name more than one schema (${[...schemas].join(', ')})`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
