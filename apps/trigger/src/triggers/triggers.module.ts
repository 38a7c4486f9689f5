import { Module } from '@nestjs/common';
import { loadTriggerConfig, TRIGGER_CONFIG } from '../config/trigger.config.js';
import { EventTriggersConsumer } from './event-triggers.consumer.js';
import { ListenerCache } from './listener.cache.js';
import { SchedulerJob } from './scheduler.job.js';
import { TriggerRuns } from './trigger-runs.js';
import { TriggersController } from './triggers.controller.js';
import { TriggersService } from './triggers.service.js';

/** Triggers: CRUD over HTTP, the scheduler, the event consumer, and the runs they start. */
@Module({
  controllers: [TriggersController],
  providers: [
    { provide: TRIGGER_CONFIG, useFactory: () => loadTriggerConfig() },
    TriggersService,
    TriggerRuns,
    SchedulerJob,
    EventTriggersConsumer,
    ListenerCache,
  ],
})
export class TriggersModule {}
