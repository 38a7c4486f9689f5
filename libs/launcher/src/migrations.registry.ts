import { SERVICE_NAMES, SERVICES, type ServiceName } from '@platform/common';
import type { ClassType, DatabaseFunction, ServiceMigrations } from '@platform/db';

/**
 * The one registry of every service's migrations and SQL functions, for `npm run db:setup`, `npm start` and the
 * tests alike. Each app exports its compiled list as `@platform/<service>/migrations`, so they are
 * found by package name rather than by a path into another package's build output.
 */
export async function serviceMigrations(names: readonly ServiceName[] = SERVICE_NAMES): Promise<ServiceMigrations[]> {
  const services: ServiceMigrations[] = [];
  for (const name of names) {
    let loaded: { migrations: ClassType[]; functions?: DatabaseFunction[] };
    try {
      loaded = (await import(`@platform/${name}/migrations`)) as typeof loaded;
    } catch (error) {
      throw new Error(`the migrations of ${name} could not be loaded (run \`npm run build\` first): ${(error as Error).message}`, { cause: error });
    }
    services.push({ service: name, schema: SERVICES[name].schema, migrations: loaded.migrations, functions: loaded.functions ?? [] });
  }
  return services;
}
