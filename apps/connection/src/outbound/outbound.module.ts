import { Module } from '@nestjs/common';
import { ConnectionConfigModule } from '../config/connection-config.module.js';
import { Outbound } from './outbound.js';

/** The one way out to other systems (operations, connection tests, OAuth token requests), under the SSRF rules. */
@Module({
  imports: [ConnectionConfigModule],
  providers: [Outbound],
  exports: [Outbound],
})
export class OutboundModule {}
