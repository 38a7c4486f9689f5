#!/usr/bin/env node
// Creates the database, roles and schemas if missing and applies every service's migrations.
// Idempotent: safe on every start. Needs the build (`npm run build`) for the compiled migrations.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_NAMES, SERVICES } from '@platform/common';
import { databaseSettings, setupDatabase } from '@platform/db';

const root = resolve(import.meta.dirname, '..');

export async function loadServiceMigrations() {
  const services = [];
  for (const name of SERVICE_NAMES) {
    const file = resolve(root, 'apps', name, 'dist/src/migrations/index.js');
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
    const { migrations } = await import(pathToFileURL(file).href);
    services.push({ service: name, schema: SERVICES[name].schema, migrations });
  }
  return services;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await setupDatabase({
      settings: databaseSettings(process.env),
      services: await loadServiceMigrations(),
      log: (line) => console.log(`[db-setup] ${line}`),
    });
    console.log('[db-setup] done');
  } catch (error) {
    console.error(`[db-setup] failed: ${error.message}`);
    process.exit(1);
  }
}
