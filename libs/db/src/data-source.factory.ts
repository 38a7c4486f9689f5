import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { ioCountersEnabled } from '@platform/common';
import type { ConnectionSettings } from './database.config.js';
import { CountingClient } from './counting-client.js';
import { watchPool, type PoolLabel } from './pool.metrics.js';
import { withoutStatementNames } from './unnamed-statements.js';

/** An entity or migration class, as TypeORM takes them. */
export type ClassType = new (...args: never[]) => unknown;

export interface DataSourceParams {
  connection: ConnectionSettings;
  /** The service's own schema: the default for unqualified names and for the migrations table. */
  schema: string;
  /** Shown in pg_stat_activity, so a slow query can be traced to its service. */
  applicationName: string;
  entities?: MixedList<ClassType | string | EntitySchema>;
  migrations?: MixedList<ClassType | string>;
  poolSize?: number;
  /** Connection attempts give up after this long so start-up fails fast with a clear message. */
  connectTimeoutMs?: number;
  /** Names the pool in the `db_pool_*` metrics; `app` unless it is SystemDb's. */
  pool?: PoolLabel;
  /**
   * False behind a pooler in transaction mode without prepared-statement support (PgBouncer
   * before 1.21): prepared statements are then sent unnamed (DATABASE_PREPARED_STATEMENTS).
   */
  preparedStatements?: boolean;
}

export function createDataSource(params: DataSourceParams): DataSource {
  const { connection } = params;
  const options: DataSourceOptions = {
    type: 'postgres',
    host: connection.host,
    port: connection.port,
    username: connection.user,
    password: connection.password,
    database: connection.database,
    schema: params.schema,
    applicationName: params.applicationName,
    entities: params.entities ?? [],
    migrations: params.migrations ?? [],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    poolSize: params.poolSize ?? 10,
    connectTimeoutMS: params.connectTimeoutMs ?? 5000,
    extra: {
      // search_path keeps unqualified names inside the service's schema.
      options: `-c search_path=${params.schema}`,
      idleTimeoutMillis: 30_000,
      // pg's own client, untouched, unless tests count each query (PLATFORM_IO_COUNTERS) or a
      // transaction-mode pooler needs statements unnamed (DATABASE_PREPARED_STATEMENTS=false).
      ...clientClass(ioCountersEnabled(), params.preparedStatements ?? true),
    },
  };
  const dataSource = new DataSource(options);
  watchPool(dataSource, params.pool ?? 'app');
  return dataSource;
}

function clientClass(counting: boolean, preparedStatements: boolean): { Client?: typeof CountingClient } {
  if (preparedStatements) return counting ? { Client: CountingClient } : {};
  return { Client: withoutStatementNames(counting ? CountingClient : undefined) };
}
