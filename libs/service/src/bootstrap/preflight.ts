import type { NatsConnection } from '@nats-io/transport-node';
import { DataSource } from 'typeorm';
import { DatabaseUnavailableError, createDataSource, databaseSettings, describeDatabaseError, type ClassType } from '@platform/db';
import { connectNats } from '@platform/messaging';
import { type ServiceConfig, type ServiceDefinition } from '@platform/common';

export interface Infrastructure {
  dataSource: DataSource;
  nats: NatsConnection;
}

/**
 * Opens the database pool and the NATS connection before Nest starts, both at once, so an
 * unreachable dependency stops the service within seconds with a message naming it (and both
 * messages appear when both are down).
 */
export async function connectInfrastructure(definition: ServiceDefinition, config: ServiceConfig, entities: ClassType[]): Promise<Infrastructure> {
  const settings = databaseSettings({ ...process.env, DATABASE_URL: config.DATABASE_URL });
  const dataSource = createDataSource({
    connection: settings.app,
    schema: definition.schema,
    applicationName: `platform-${definition.name}`,
    entities,
    poolSize: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    connectTimeoutMs: 3000,
  });
  const [db, nats] = await Promise.allSettled([
    dataSource.initialize().catch((error: unknown) => {
      throw new DatabaseUnavailableError(describeDatabaseError(error, settings.app), error);
    }),
    connectNats({ url: config.NATS_URL, name: `platform-${definition.name}` }),
  ]);
  const problems = [db, nats].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as Error).message);
  if (problems.length) {
    if (db.status === 'fulfilled') await dataSource.destroy().catch(() => undefined);
    if (nats.status === 'fulfilled') await nats.value.close().catch(() => undefined);
    throw new InfrastructureError(problems);
  }
  return { dataSource, nats: (nats as PromiseFulfilledResult<NatsConnection>).value };
}

export class InfrastructureError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'InfrastructureError';
  }
}
