import { Logger, Module, type DynamicModule, type OnApplicationShutdown, type Provider, Inject } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Bus } from './bus.js';
import { describeNatsError, NatsUnavailableError } from './nats.errors.js';
import { NATS_CONNECTION } from './nats-connection.js';
import { UsageMeter } from './usage/usage-meter.js';

export { NATS_CONNECTION };

export interface MessagingOptions {
  url: string;
  /** Shown in the NATS server's connection list. */
  name: string;
}

/** Opens a NATS connection or fails with a sentence that says where and how to start NATS. */
export async function connectNats(options: MessagingOptions): Promise<NatsConnection> {
  try {
    return await connect({
      servers: options.url,
      name: options.name,
      timeout: 3000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      // Without this, every request builds two Error objects (stack traces included) up front, in
      // case it fails: measurable on the hot paths, and our errors name the subject anyway.
      noAsyncTraces: true,
    });
  } catch (error) {
    throw new NatsUnavailableError(describeNatsError(error, options.url));
  }
}

class NatsConnectionCloser implements OnApplicationShutdown {
  private readonly logger = new Logger('Messaging');

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.connection.isClosed()) return;
    // Drain: handlers already received finish, queued publishes are flushed.
    await this.connection.drain().catch((error: unknown) => this.logger.warn(`NATS drain failed: ${String(error)}`));
  }
}

@Module({})
export class MessagingModule {
  /** Uses a connection opened before start-up, so an unreachable NATS fails fast with a clear message. */
  static forConnection(connection: NatsConnection): DynamicModule {
    return MessagingModule.build({ provide: NATS_CONNECTION, useValue: connection });
  }

  static forRoot(options: MessagingOptions): DynamicModule {
    return MessagingModule.build({ provide: NATS_CONNECTION, useFactory: () => connectNats(options) });
  }

  private static build(connection: Provider): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [connection, { provide: Bus, useFactory: (nc: NatsConnection) => new Bus(nc), inject: [NATS_CONNECTION] }, UsageMeter, NatsConnectionCloser],
      exports: [NATS_CONNECTION, Bus, UsageMeter],
    };
  }
}
