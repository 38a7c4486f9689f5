import { Module, type DynamicModule, type OnApplicationShutdown, type Provider, type Type, Inject } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger as PinoLogger } from 'pino';
import { DataSource } from 'typeorm';
import { AuthModule, type Authenticator } from '@platform/auth';
import { SystemDb, TenantDb, createDataSource, databaseSettings } from '@platform/db';
import { MessagingModule } from '@platform/messaging';
import type { PlannedRoute, ServiceDefinition } from '../catalog/services.catalog.js';
import type { ServiceConfig } from '../config/service.config.js';
import { HealthController } from '../health/health.controller.js';
import { HealthRegistry } from '../health/health.registry.js';
import { plannedRoutesController } from './planned-routes.js';
import { ROOT_LOGGER, SERVICE_CONFIG, SERVICE_DEFINITION } from './platform.tokens.js';

export interface PlatformModuleOptions {
  definition: ServiceDefinition;
  config: ServiceConfig;
  logger: PinoLogger;
  dataSource: DataSource;
  nats: NatsConnection;
  /** The app's own root module. */
  module: Type<unknown>;
  plannedRoutes?: readonly PlannedRoute[];
  authenticator?: Type<Authenticator>;
  authProviders?: Provider[];
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
          entities: dataSource.options.entities,
          poolSize: 2,
        }),
      (message, fields) => logger.info({ ...fields, db_role: 'system' }, message),
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
      imports: [
        MessagingModule.forConnection(options.nats),
        AuthModule.forRoot({ authenticator: options.authenticator, providers: options.authProviders }),
        options.module,
      ],
      controllers: [HealthController, ...(options.plannedRoutes?.length ? [plannedRoutesController(definition.name, options.plannedRoutes)] : [])],
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
