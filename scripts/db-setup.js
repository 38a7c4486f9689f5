#!/usr/bin/env node
// Creates the database, roles and schemas if missing and applies every service's migrations.
// Idempotent: safe on every start. Needs the build (`npm run build`) for the compiled migrations.
import { pathToFileURL } from 'node:url';
import { databaseSettings, setupDatabase } from '@platform/db';
import { serviceMigrations } from '@platform/launcher';

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await setupDatabase({
      settings: databaseSettings(process.env),
      services: await serviceMigrations(),
      log: (line) => console.log(`[db-setup] ${line}`),
    });
    console.log('[db-setup] done');
  } catch (error) {
    console.error(`[db-setup] failed: ${error.message}`);
    process.exit(1);
  }
}
