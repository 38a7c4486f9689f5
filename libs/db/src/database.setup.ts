import pg from 'pg';
import type { ConnectionSettings, DatabaseSettings } from './database.config.js';
import { createDataSource, type ClassType } from './data-source.factory.js';
import { MigrationExecutor } from 'typeorm';
import { DatabaseUnavailableError, describeDatabaseError } from './connection-errors.js';
import { applyDatabaseFunctions, type DatabaseFunction } from './database-functions.js';

export interface ServiceMigrations {
  service: string;
  schema: string;
  migrations: ClassType[];
  /** The service's SQL functions (`<feature>/sql/<name>.sql`), applied after its migrations. */
  functions?: DatabaseFunction[];
}

export interface SetupOptions {
  settings: DatabaseSettings;
  services: ServiceMigrations[];
  log?: (message: string) => void;
}

// Roles are cluster-wide, so creating or altering them is serialized through a lock taken in the
// maintenance database: parallel test runs each set up their own database on the same cluster.
const ROLE_LOCK = 7_310_001;
const SCHEMA_LOCK = 7_310_002;

/**
 * Schemas a service owns besides its own, made and granted exactly like it: the storage service
 * keeps one physical table per user data table in `storage_data`, apart from its own tables; run
 * owns the `query` schema of read-only views `/v1/data/query` may name.
 */
export const EXTRA_SCHEMAS: Readonly<Record<string, readonly string[]>> = { storage: ['storage_data'], run: ['query'] };

async function connect(target: ConnectionSettings): Promise<pg.Client> {
  const client = new pg.Client({ ...target, connectionTimeoutMillis: 5000, application_name: 'platform-setup' });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUnavailableError(describeDatabaseError(error, target), error);
  }
  return client;
}

async function ensureDatabase(client: pg.Client, name: string): Promise<boolean> {
  const found = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (found.rowCount) return false;
  try {
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '42P04') return false; // created by a concurrent setup
    throw error;
  }
}

async function ensureRole(client: pg.Client, role: ConnectionSettings, attributes: string): Promise<void> {
  const name = client.escapeIdentifier(role.user);
  const exists = await client.query('select 1 from pg_roles where rolname = $1', [role.user]);
  if (!exists.rowCount) await client.query(`create role ${name}`);
  const password = role.password ? `password ${client.escapeLiteral(role.password)}` : '';
  await client.query(`alter role ${name} with login ${attributes} ${password}`);
}

async function ensureRoles(settings: DatabaseSettings): Promise<void> {
  const client = await connect({ ...settings.admin, database: 'postgres' });
  try {
    await client.query('select pg_advisory_lock($1)', [ROLE_LOCK]);
    await ensureDatabase(client, settings.admin.database);
    const common = 'nosuperuser nocreatedb nocreaterole noreplication';
    await ensureRole(client, settings.owner, `${common} nobypassrls`);
    await ensureRole(client, settings.app, `${common} nobypassrls`);
    await ensureRole(client, settings.system, `${common} bypassrls`);
  } finally {
    await client.end();
  }
}

async function ensureSchemas(settings: DatabaseSettings, schemas: string[]): Promise<void> {
  const client = await connect(settings.admin);
  const id = (s: string) => client.escapeIdentifier(s);
  const owner = id(settings.owner.user);
  const readers = `${id(settings.app.user)}, ${id(settings.system.user)}`;
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    await client.query(`grant connect on database ${id(settings.admin.database)} to ${owner}, ${readers}`);
    await client.query(`revoke create on schema public from public`);
    for (const schema of schemas) {
      await client.query(`create schema if not exists ${id(schema)} authorization ${owner}`);
      await client.query(`grant usage on schema ${id(schema)} to ${readers}`);
      await client.query(`alter default privileges for role ${owner} in schema ${id(schema)} grant select, insert, update, delete on tables to ${readers}`);
      await client.query(`alter default privileges for role ${owner} in schema ${id(schema)} grant usage, select on sequences to ${readers}`);
      await client.query(`grant select, insert, update, delete on all tables in schema ${id(schema)} to ${readers}`);
      await client.query(`grant usage, select on all sequences in schema ${id(schema)} to ${readers}`);
    }
  } finally {
    await client.end();
  }
}

async function runMigrations(settings: DatabaseSettings, service: ServiceMigrations): Promise<string[]> {
  const dataSource = createDataSource({
    connection: settings.owner,
    schema: service.schema,
    applicationName: `platform-migrate-${service.service}`,
    migrations: service.migrations,
    poolSize: 1,
  });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new DatabaseUnavailableError(describeDatabaseError(error, settings.owner), error);
  }
  // One transaction per service: its pending migrations, then its functions' current text. A
  // lock per schema keeps two processes setting up the same service from racing on either.
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('select pg_advisory_xact_lock($1, hashtext($2))', [SCHEMA_LOCK, service.schema]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all'; // joins the transaction started here, which this function commits
    const applied = await executor.executePendingMigrations();
    await applyDatabaseFunctions((sql, parameters) => runner.query(sql, parameters), service.schema, service.functions ?? []);
    await runner.commitTransaction();
    return applied.map((m) => m.name);
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/**
 * Idempotent: creates the database, the owner/application/system roles and every service's
 * schema if missing, then applies each service's pending migrations and its SQL functions, in one
 * transaction per service, as the owner role.
 */
export async function setupDatabase(options: SetupOptions): Promise<void> {
  const log = options.log ?? (() => undefined);
  const { settings } = options;
  log(`database ${settings.admin.database} on ${settings.admin.host}:${settings.admin.port}`);
  await ensureRoles(settings);
  log(`roles ${settings.owner.user}, ${settings.app.user}, ${settings.system.user} ready`);
  await ensureSchemas(
    settings,
    options.services.flatMap((s) => [s.schema, ...(EXTRA_SCHEMAS[s.service] ?? [])]),
  );
  for (const service of options.services) {
    const applied = await runMigrations(settings, service);
    log(`${service.service}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
  }
}

/** Drops a database made for a test run; terminates its connections first. */
export async function dropDatabase(settings: DatabaseSettings): Promise<void> {
  const client = await connect({ ...settings.admin, database: 'postgres' });
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(settings.admin.database)} with (force)`);
  } finally {
    await client.end();
  }
}
