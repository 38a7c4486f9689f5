import 'reflect-metadata';
import { type Provider, type Type } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { NamespacedServerNats, configureNamespace, configureStreams } from '@platform/messaging';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Authenticator } from '@platform/auth';
import { mountDocs } from '../docs/openapi.js';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter.js';
import { JsonBodyInterceptor } from '../http/json-body.interceptor.js';
import { jsonBodyParser } from '../http/json-body.parser.js';
import { RequestContextInterceptor } from '../http/request-context.interceptor.js';
import { StorableTextInterceptor } from '../http/storable-text.interceptor.js';
import { PlatformModule } from '../platform/platform.module.js';
import { connectInfrastructure, InfrastructureError, type Infrastructure } from './preflight.js';
import {
  accessLogMiddleware,
  ConfigError,
  createLogger,
  enableIoCounters,
  httpServerSpans,
  ioCountersHandler,
  loadConfig,
  type PlannedRoute,
  requestIdMiddleware,
  ServiceConfig,
  type ServiceDefinition,
  type ServiceName,
  SERVICES,
  startTracing,
  tracesSamplerSetting,
  stopTracing,
  tracingEnabled,
} from '@platform/common';
import type { Logger as PinoLogger } from 'pino';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { PinoNestLogger } from '../logging/nest-logger.js';
import { startServiceMetrics } from '../metrics/service.metrics.js';
import { loadStatementParser, type ClassType } from '@platform/db';

export interface BootstrapOptions<C extends ServiceConfig = ServiceConfig> {
  service: ServiceName;
  module: Type<unknown>;
  entities?: ClassType[];
  plannedRoutes?: readonly PlannedRoute[];
  /** A subclass of ServiceConfig with the service's own settings. */
  config?: new () => C;
  /** Replaces credential checks; tests of other layers only. */
  authenticator?: Provider<Authenticator>;
  /** Extra component schemas for the OpenAPI description (e.g. a JSON Schema referenced by $ref). */
  openApiSchemas?: Record<string, object>;
}

export interface RunningService {
  app: NestExpressApplication;
  url: string;
  close(): Promise<void>;
}

function fail(service: string, lines: string[]): never {
  // Plain text on stderr: this is read by a person starting the platform, not by a log pipeline.
  process.stderr.write(`\n[${service}] cannot start:\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`);
  process.exit(1);
}

/** What a service's process and each of its threads start from: checked settings, a logger, the database and NATS. */
export interface PreparedService<C extends ServiceConfig = ServiceConfig> {
  definition: ServiceDefinition;
  config: C;
  logger: PinoLogger;
  infrastructure: Infrastructure;
}

/**
 * Loads and checks the service's settings and connects to its database and NATS; a problem ends
 * the process with a message a person can act on.
 */
export async function prepareService<C extends ServiceConfig>(
  service: ServiceName,
  configClass?: new () => C,
  entities: ClassType[] = [],
): Promise<PreparedService<C>> {
  const definition = SERVICES[service];
  let config: C;
  try {
    config = loadConfig((configClass ?? ServiceConfig) as new () => C, process.env, { PORT: definition.port } as Partial<Record<keyof C, unknown>>);
    // Checked with the settings, so a bad sampler is reported like any bad setting.
    tracesSamplerSetting(process.env);
    if (config.AUTH_MODE === 'bench-static' && config.NODE_ENV === 'production') {
      throw new ConfigError(["AUTH_MODE: 'bench-static' turns authentication off and is refused when NODE_ENV=production"]);
    }
  } catch (error) {
    if (error instanceof ConfigError) fail(definition.name, error.problems);
    throw error;
  }
  configureNamespace(config.NATS_NAMESPACE);
  configureStreams({ replicas: config.NATS_STREAM_REPLICAS, maxBytes: config.NATS_STREAM_MAX_BYTES });
  // Before the pools exist: they count only if built while the counters are on.
  if (config.PLATFORM_IO_COUNTERS) {
    enableIoCounters();
    await loadStatementParser();
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  // Before the database is connected (the pg instrumentation sees pg loaded); off without OTEL_EXPORTER_OTLP_ENDPOINT.
  await startTracing(definition.name);
  try {
    return { definition, config, logger, infrastructure: await connectInfrastructure(definition, config, entities) };
  } catch (error) {
    if (error instanceof InfrastructureError) fail(definition.name, error.problems);
    throw error;
  }
}

/** The one start-up path of every service; main.ts is a single call to it. */
export async function bootstrapService<C extends ServiceConfig>(options: BootstrapOptions<C>): Promise<RunningService> {
  const { definition, config, logger, infrastructure } = await prepareService(options.service, options.config, options.entities);
  const nestLogger = new PinoNestLogger(logger);

  let app: NestExpressApplication;
  try {
    app = await NestFactory.create<NestExpressApplication>(
      PlatformModule.forService({
        definition,
        config,
        logger,
        dataSource: infrastructure.dataSource,
        nats: infrastructure.nats,
        module: options.module,
        plannedRoutes: options.plannedRoutes,
        authenticator: options.authenticator,
      }),
      { logger: nestLogger, bodyParser: false, abortOnError: false },
    );
  } catch (error) {
    // A feature's own settings are validated as its module starts: same clear message, same exit.
    if (error instanceof ConfigError) fail(definition.name, error.problems);
    throw error;
  }
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  // Tests only: this process's round trips and messages, per request (the round-trip budget test).
  if (config.PLATFORM_IO_COUNTERS) app.use('/actuator/io-counters', ioCountersHandler);
  const stopMetrics = startServiceMetrics(app, definition.name, config, logger);
  // With tracing on, the request's id and its server span are set up together (one scope).
  app.use(tracingEnabled() ? httpServerSpans : requestIdMiddleware);
  app.use(accessLogMiddleware(logger));
  app.use(jsonBodyParser(config.BODY_LIMIT_BYTES));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(nestLogger));
  app.useGlobalInterceptors(new RequestContextInterceptor(), new JsonBodyInterceptor(app.get(Reflector)), new StorableTextInterceptor());
  mountDocs(app, definition, config.DOCS_PUBLIC, { schemas: options.openApiSchemas, plannedRoutes: options.plannedRoutes });

  app.connectMicroservice<MicroserviceOptions>(
    { strategy: new NamespacedServerNats({ servers: config.NATS_URL, queue: definition.name, name: `platform-${definition.name}-server` }) },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  const url = `http://${config.HOST}:${config.PORT}`;
  logger.info({ url, schema: definition.schema }, `${definition.name} listening on ${url}`);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info('draining: no new connections, finishing in-flight requests');
      const timer = setTimeout(() => {
        logger.warn(`shutdown took over ${config.SHUTDOWN_TIMEOUT_MS} ms; exiting`);
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT_MS);
      timer.unref();
      // app.close() stops the HTTP server (in-flight requests finish, idle keep-alive sockets
      // close), then the microservice, then runs shutdown hooks (NATS drain, pools closed).
      await app.close();
      await infrastructure.nats.close().catch(() => undefined);
      stopMetrics();
      await stopTracing();
      clearTimeout(timer);
      logger.info('stopped');
    })();
    return closing;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0));
    });
  }
  return { app, url, close };
}
