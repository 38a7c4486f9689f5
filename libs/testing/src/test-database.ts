import { randomBytes } from 'node:crypto';
import { databaseSettings, dropDatabase, setupDatabase, withDatabase, type DatabaseSettings, type ServiceMigrations } from '@platform/db';
import { serviceMigrations } from '@platform/launcher';

export interface TestDatabase {
  name: string;
  settings: DatabaseSettings;
  /** DATABASE_URL for processes started against this database (admin credentials; services log in as the app role). */
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test run, set up with the real roles and every service's real
 * migrations, and dropped afterwards: parallel runs on one server never see each other.
 */
export async function createTestDatabase(label = 'test', services?: ServiceMigrations[]): Promise<TestDatabase> {
  const name = `platform_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = databaseSettings(process.env);
  const settings = withDatabase(base, name);
  await setupDatabase({ settings, services: services ?? (await serviceMigrations()) });
  const admin = settings.admin;
  const auth = admin.password ? `${encodeURIComponent(admin.user)}:${encodeURIComponent(admin.password)}` : encodeURIComponent(admin.user);
  return {
    name,
    settings,
    url: `postgres://${auth}@${admin.host}:${admin.port}/${name}`,
    drop: () => dropDatabase(settings),
  };
}
