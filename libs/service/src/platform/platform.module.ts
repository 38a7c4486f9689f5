import { Module, type DynamicModule, type OnApplicationShutdown, type Provider, type Type, Inject } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger as PinoLogger } from 'pino';
import { DataSource } from 'typeorm';
import { AuthModule, Authenticator, StaticAuthenticator } from '@platform/auth';
import { SystemDb, TenantDb, createDataSource, databaseSettings, type DataSourceParams } from '@platform/db';
import { MessagingModule } from '@platform/messaging';
import { HealthController } from '../health/health.controller.js';
import { HealthRegistry } from '../health/health.registry.js';
import { plannedRoutesController } from './planned-routes.js';
import { ROOT_LOGGER, SERVICE_CONFIG, SERVICE_DEFINITION } from './platform.tokens.js';
import { type PlannedRoute, type ServiceConfig, type ServiceDefinition } from '@platform/common';

export interface PlatformModuleOptions {
  definition: ServiceDefinition;
  config: ServiceConfig;
  logger: PinoLogger;
  dataSource: DataSource;
  nats: NatsConnection;
  /** The app's own root module. */
  module: Type<unknown>;
  plannedRoutes?: readonly PlannedRoute[];
  /** Replaces credential checks; tests of other layers only. */
  authenticator?: Provider<Authenticator>;
}

/**
 * Connections of each process's system-role pool (SystemDb), on top of DATABASE_POOL_SIZE: it
 * serves reconcilers and the usage outbox, a few statements at a time. Counted in the PostgreSQL
 * connection budget (docs/operations.md).
 */
export const SYSTEM_POOL_SIZE = 2;

/** Benchmarks only: the tenant every request is taken to be when AUTH_MODE=bench-static. */
const BENCH_PRINCIPAL = {
  tenantId: '00000000-0000-4000-8000-000000000001',
  environmentId: '00000000-0000-4000-8000-000000000002',
  scopeId: null,
  kind: 'tenant_key' as const,
  keyMode: 'test' as const,
  scopes: ['*'],
  subject: '00000000-0000-4000-8000-000000000003',
  keyName: 'bench-static',
};

function authModule(config: ServiceConfig, override?: Provider<Authenticator>): DynamicModule {
  const authenticator =
    override ?? (config.AUTH_MODE === 'bench-static' ? { provide: Authenticator, useValue: new StaticAuthenticator(BENCH_PRINCIPAL) } : undefined);
  return AuthModule.forRoot({
    authenticator,
    options: {
      jwt: {
        jwksUrl: config.JWT_JWKS_URL || undefined,
        issuer: config.JWT_ISSUER || undefined,
        audience: config.JWT_AUDIENCE || undefined,
        clockToleranceSeconds: config.JWT_CLOCK_TOLERANCE_SECONDS,
      },
      keyCacheTtlMs: config.KEY_CACHE_TTL_MS,
      adminToken: config.PLATFORM_ADMIN_TOKEN || undefined,
    },
  });
}

class ResourceCloser implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly systemDb: SystemDb,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.systemDb.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * What every service has: configuration, the database (tenant and system paths), NATS, the
 * global TenantGuard, health and the planned-route stubs. Built by bootstrapService around the
 * app's own module, so an app declares only its features.
 */
@Module({})
export class PlatformModule {
  static forService(options: PlatformModuleOptions): DynamicModule {
    const { definition, config, logger, dataSource } = options;
    const systemDb = new SystemDb(
      () =>
        createDataSource({
          connection: databaseSettings(process.env).system,
          schema: definition.schema,
          applicationName: `platform-${definition.name}-system`,
          entities: dataSource.options.entities as DataSourceParams['entities'],
          poolSize: SYSTEM_POOL_SIZE,
          pool: 'system',
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
        }),
      (message, fields, level) => logger[level]({ ...fields, db_role: 'system' }, message),
    );
    const health = new HealthRegistry(definition.name);
    health.register('database', async () => {
      await dataSource.query('select 1');
    });
    health.register('nats', async () => {
      if (options.nats.isClosed()) throw new Error('closed');
      await options.nats.flush();
    });
    return {
      module: PlatformModule,
      global: true,
      imports: [MessagingModule.forConnection(options.nats), authModule(config, options.authenticator), options.module],
      controllers: [HealthController, ...(options.plannedRoutes?.length ? [plannedRoutesController(options.plannedRoutes)] : [])],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: SERVICE_DEFINITION, useValue: definition },
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: DataSource, useValue: dataSource },
        { provide: TenantDb, useValue: new TenantDb(dataSource) },
        { provide: SystemDb, useValue: systemDb },
        { provide: HealthRegistry, useValue: health },
        { provide: ResourceCloser, useFactory: () => new ResourceCloser(dataSource, systemDb) },
      ],
      exports: [SERVICE_CONFIG, SERVICE_DEFINITION, ROOT_LOGGER, DataSource, TenantDb, SystemDb, HealthRegistry],
    };
  }
}

export const InjectServiceConfig = () => Inject(SERVICE_CONFIG);
