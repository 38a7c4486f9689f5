import { Module } from '@nestjs/common';
import { EnvironmentsHandler } from './environments.handler.js';
import { EnvironmentsService } from './environments.service.js';

/** Environments (data planes): JWT callers' environments for every service. Tenants create them; API keys read their mode. */
@Module({
  controllers: [EnvironmentsHandler],
  providers: [EnvironmentsService],
})
export class EnvironmentsModule {}
