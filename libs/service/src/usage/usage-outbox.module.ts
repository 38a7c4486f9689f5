import { Module } from '@nestjs/common';
import type { ServiceConfig, ServiceDefinition } from '@platform/common';
import { SERVICE_CONFIG, SERVICE_DEFINITION } from '../platform/platform.tokens.js';
import { USAGE_OUTBOX_OPTIONS, UsageOutbox, type UsageOutboxOptions } from './usage-outbox.js';
import { UsageOutboxRelayJob } from './usage-outbox.relay.js';

/**
 * For services that meter usage: the UsageOutbox on the service's own schema and its relay. The
 * service's migrations list must hold `usageOutboxMigration('<schema>')`.
 */
@Module({
  providers: [
    {
      provide: USAGE_OUTBOX_OPTIONS,
      useFactory: (definition: ServiceDefinition, config: ServiceConfig): UsageOutboxOptions => ({
        schema: definition.schema,
        graceMs: config.USAGE_OUTBOX_GRACE_MS,
        giveUpMs: config.USAGE_OUTBOX_GIVE_UP_MS,
      }),
      inject: [SERVICE_DEFINITION, SERVICE_CONFIG],
    },
    UsageOutbox,
    UsageOutboxRelayJob,
  ],
  exports: [UsageOutbox],
})
export class UsageOutboxModule {}
