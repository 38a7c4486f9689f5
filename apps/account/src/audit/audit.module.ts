import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditService } from './audit.service.js';
import { KeyUsageConsumer } from './key-usage.consumer.js';

/** The audit log of key use, fed by every service through JetStream, and per-key usage. */
@Module({
  controllers: [AuditController],
  providers: [AuditService, KeyUsageConsumer],
})
export class AuditModule {}
