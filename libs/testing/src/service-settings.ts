import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProcessConfig, ServiceConfig } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';

/**
 * The settings the deployed processes read, found in their settings classes rather than listed by
 * hand: every `*.config.ts` class an app loads with `loadConfig` (whose own keys, defaults
 * included, are exactly the variables it reads), the shared ProcessConfig and ServiceConfig, and
 * the OpenTelemetry variables our tracing reads itself. A setting added to any of them fails the
 * deployment-settings test until the production overlay sets it or docs/operations.md says it is
 * left at its default.
 */
export const SETTING = /^[A-Z][A-Z0-9_]+$/;

/** The database roles' names and passwords, read by libs/db's databaseSettings beside DATABASE_URL (services log in as app and system). */
const DATABASE_ROLE_SETTINGS = ['DATABASE_APP_USER', 'DATABASE_APP_PASSWORD', 'DATABASE_SYSTEM_USER', 'DATABASE_SYSTEM_PASSWORD'];

function configFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...configFiles(path));
    else if (entry.name.endsWith('.config.js')) files.push(path);
  }
  return files;
}

const keysOf = (type: new () => object): string[] => Object.keys(new type()).filter((key) => SETTING.test(key));

/** Each setting, with the settings classes that declare it (`apps/run/src/config/run.config.ts`, `ServiceConfig`). */
export async function settingsReadByProcesses(apps: readonly string[]): Promise<Map<string, string[]>> {
  const settings = new Map<string, string[]>();
  const add = (key: string, where: string) => settings.set(key, [...new Set([...(settings.get(key) ?? []), where])]);
  for (const key of keysOf(ServiceConfig)) add(key, 'ServiceConfig');
  for (const key of keysOf(ProcessConfig)) if (!settings.has(key)) add(key, 'ProcessConfig');
  for (const key of DATABASE_ROLE_SETTINGS) add(key, 'libs/db/src/database.config.ts');
  for (const app of apps) {
    for (const file of configFiles(join(REPO_ROOT, 'apps', app, 'dist', 'src'))) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function' || !name.endsWith('Config') || value.length > 0) continue;
        for (const key of keysOf(value as new () => object)) add(key, relative(REPO_ROOT, file).replace('/dist/src/', '/src/').replace(/\.js$/, '.ts'));
      }
    }
  }
  // The OTEL_* settings our tracing reads itself, in whichever of its sources reads them.
  const telemetryDir = join(REPO_ROOT, 'libs/common/src/telemetry');
  const tracing = readdirSync(telemetryDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => readFileSync(join(telemetryDir, file), 'utf8'))
    .join('\n');
  for (const match of tracing.matchAll(/\benv\.(OTEL_[A-Z_]+)/g)) if (!settings.has(match[1])) add(match[1], 'libs/common/src/telemetry');
  return settings;
}
