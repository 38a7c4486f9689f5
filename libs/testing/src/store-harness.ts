import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SERVICES, type ServiceName } from '@platform/common';
import { SystemDb, TenantDb, createDataSource, type TenantContext } from '@platform/db';
import { serviceMigrations } from '@platform/launcher';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The store tier's harness: a database of its own with the real migrations and SQL functions of
 * the named services, reached three ways: `tenantDb` as the application role under row-level
 * security (what repositories use), `systemDb` as the system role (what workers use), and `admin`
 * to arrange rows and read back what a function wrote. `tenant()` mints a fresh tenant per test,
 * so tests never see each other's rows.
 */
type DataSource = ReturnType<typeof createDataSource>;

export interface StoreHarness {
  database: TestDatabase;
  dataSource: DataSource;
  tenantDb: TenantDb;
  systemDb: SystemDb;
  admin: pg.Client;
  tenant(): TenantContext;
  close(): Promise<void>;
}

export async function storeHarness(services: readonly ServiceName[], label = 'store'): Promise<StoreHarness> {
  const database = await createTestDatabase(label, await serviceMigrations(services));
  const schema = SERVICES[services[0]].schema;
  const dataSource = createDataSource({ connection: database.settings.app, schema, applicationName: `${label}-app`, poolSize: 2 });
  await dataSource.initialize();
  const systemDb = new SystemDb(
    () => createDataSource({ connection: database.settings.system, schema, applicationName: `${label}-system`, poolSize: 1 }),
    () => undefined,
  );
  const admin = new pg.Client(database.settings.admin);
  await admin.connect();
  return {
    database,
    dataSource,
    tenantDb: new TenantDb(dataSource),
    systemDb,
    admin,
    tenant: () => ({ tenantId: randomUUID(), environmentId: randomUUID() }),
    async close() {
      await systemDb.close();
      await dataSource.destroy();
      await admin.end();
      await database.drop();
    },
  };
}
